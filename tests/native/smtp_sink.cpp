#include "tests/native/smtp_sink.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

namespace test_smtp {
namespace {

namespace fs = std::filesystem;

// The two lines smtp_sink.py writes before the data: `X-Sink-Mail-From: <a>` and `X-Sink-Rcpt-To: <b>, <c>`.
bool read_envelope_line(const std::string& file, std::size_t& pos, std::string_view name,
                        std::string& value) {
  const auto eol = file.find("\r\n", pos);
  if (eol == std::string::npos || file.compare(pos, name.size(), name) != 0) return false;
  value = file.substr(pos + name.size(), eol - pos - name.size());
  pos = eol + 2;
  return true;
}

std::string without_brackets(std::string_view path) {
  if (path.size() >= 2 && path.front() == '<' && path.back() == '>') path = path.substr(1, path.size() - 2);
  return std::string(path);
}

ReceivedMail parse_file(const std::string& file) {
  ReceivedMail mail;
  std::size_t pos = 0;
  std::string from, recipients;
  if (!read_envelope_line(file, pos, "X-Sink-Mail-From: ", from) ||
      !read_envelope_line(file, pos, "X-Sink-Rcpt-To: ", recipients)) {
    mail.data = file;  // not written by smtp_sink.py: hand it over whole
    return mail;
  }
  mail.mail_from = without_brackets(from);
  for (std::size_t start = 0; start < recipients.size();) {
    auto comma = recipients.find(", ", start);
    if (comma == std::string::npos) comma = recipients.size();
    mail.rcpt_to.push_back(without_brackets(std::string_view(recipients).substr(start, comma - start)));
    start = comma + 2;
  }
  mail.data = file.substr(pos);
  return mail;
}

}  // namespace

std::unique_ptr<SmtpSink> SmtpSink::start(const SmtpSinkOptions& options, std::string& failure) {
  std::unique_ptr<SmtpSink> sink(new SmtpSink());
  fs::create_directories(sink->dir_.path());
  std::vector<std::string> argv = {"/usr/bin/python3", SMTP_SINK_SCRIPT, sink->maildir()};
  auto add = [&argv](const char* option, const std::vector<std::string>& addresses) {
    for (const auto& a : addresses) argv.insert(argv.end(), {option, a});
  };
  add("--tempfail-rcpt", options.tempfail_rcpt);
  add("--permfail-rcpt", options.permfail_rcpt);
  add("--multiline-rcpt", options.multiline_rcpt);
  add("--tempfail-rcpt-once", options.tempfail_rcpt_once);
  add("--tempfail-data", options.tempfail_data);
  add("--permfail-data", options.permfail_data);

  const std::string log = (sink->dir_.path() / "sink.log").string();
  sink->server_ = test_process::ChildProcess::start(argv, true, log, failure);
  if (sink->server_ == nullptr) return nullptr;
  // The script prints its port once it is listening; Python and aiosmtpd take about 0.3 s to load.
  const auto line = sink->server_->read_line(std::chrono::seconds(15));
  int port = 0;
  if (line) std::from_chars(line->data(), line->data() + line->size(), port);
  if (port <= 0) {
    std::ifstream in(log);
    failure = "the SMTP sink did not start: " + std::string(std::istreambuf_iterator<char>(in), {});
    return nullptr;
  }
  sink->port_ = port;
  return sink;
}

SmtpSink::~SmtpSink() {
  server_.reset();  // before dir_ is removed
}

std::vector<ReceivedMail> SmtpSink::received() const {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(fs::path(maildir()) / "new", ec))
    names.push_back(entry.path().string());
  std::sort(names.begin(), names.end());
  std::vector<ReceivedMail> mails;
  for (const auto& name : names) {
    std::ifstream in(name, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    mails.push_back(parse_file(bytes.str()));
  }
  return mails;
}

std::vector<ReceivedMail> SmtpSink::wait_for(std::size_t count, std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    auto mails = received();
    if (mails.size() >= count || std::chrono::steady_clock::now() >= deadline) return mails;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace test_smtp
