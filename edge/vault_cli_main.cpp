// env-vault: the env vault's command-line client (docs/env-vault.md, "Command-line client").
//
//   env-vault pull [--file .env] [--public-only]      write the environment's variables to a .env file
//   env-vault push [--file .env] [--prune] [--base-version N] [--public KEY,...]
//   env-vault run [--] COMMAND [ARGS...]              run COMMAND with the variables in its environment
//
// The token comes from ENV_VAULT_TOKEN or --token-file (never from the command line, where `ps` shows it);
// the platform's address from ENV_VAULT_URL or --url. Exit status: 0 done, 1 the server or a file said no
// (the reason on stderr), 2 wrong usage; `run` replaces itself with COMMAND (execvp), so COMMAND's status is
// the status, and 127 when COMMAND cannot be started.

#include <fcntl.h>
#include <httplib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/vault/dotenv.h"

namespace {

namespace json = core::json;

constexpr const char* kUsage =
    R"(env-vault: push, pull and run with the variables of one env vault environment.

Usage:
  env-vault [--url URL] [--token-file FILE] pull [--file PATH] [--public-only]
  env-vault [--url URL] [--token-file FILE] push [--file PATH] [--prune] [--base-version N] [--public KEYS]
  env-vault [--url URL] [--token-file FILE] run [--] COMMAND [ARGS...]
  env-vault --help

Commands:
  pull   Fetch the environment's variables and write them to a .env file (default: .env), mode 0600.
         --public-only fetches only the variables flagged public.
  push   Read a .env file (default: .env) and push its variables as a new version.
         --prune          also remove the variables the file does not name
         --base-version N refuse (exit 1) unless the vault is still at version N
         --public KEYS    comma-separated names pushed with the public flag; the others are private
  run    Fetch the variables and start COMMAND with them added to the environment (they override
         variables of the same name). COMMAND's exit status is env-vault's.

The environment is the one the token is bound to.
  ENV_VAULT_TOKEN   the env vault token (stk_env_...); or --token-file FILE holding it
  ENV_VAULT_URL     the platform's address, e.g. https://platform.example.com; or --url URL

Exit status: 0 done, 1 refused by the server or a file error, 2 wrong usage, 127 COMMAND not started.
)";

struct Options {
  std::string url, token, token_file, command, file = ".env", base_version;
  std::set<std::string> public_keys;
  bool prune = false, public_only = false;
  std::vector<std::string> run_args;
};

[[noreturn]] void usage_error(const std::string& message) {
  std::cerr << "env-vault: " << message << "\nRun 'env-vault --help' for usage.\n";
  std::exit(2);
}

[[noreturn]] void fail(const std::string& message) {
  std::cerr << "env-vault: " << message << "\n";
  std::exit(1);
}

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

Options parse(int argc, char** argv) {
  Options o;
  auto value = [&](int& i, const std::string& flag) -> std::string {
    if (i + 1 >= argc) usage_error(flag + " needs a value");
    return argv[++i];
  };
  int i = 1;
  for (; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h" || a == "help") {
      std::cout << kUsage;
      std::exit(0);
    } else if (a == "--url") {
      o.url = value(i, a);
    } else if (a == "--token-file") {
      o.token_file = value(i, a);
    } else if (!o.command.empty() && o.command != "run" && a == "--file") {
      o.file = value(i, a);
    } else if (o.command == "push" && a == "--prune") {
      o.prune = true;
    } else if (o.command == "push" && a == "--base-version") {
      o.base_version = value(i, a);
      if (o.base_version.empty() || o.base_version.find_first_not_of("0123456789") != std::string::npos)
        usage_error("--base-version needs a version number");
    } else if (o.command == "push" && a == "--public") {
      std::stringstream list(value(i, a));
      for (std::string key; std::getline(list, key, ',');)
        if (!trim(key).empty()) o.public_keys.insert(trim(key));
    } else if (o.command == "pull" && a == "--public-only") {
      o.public_only = true;
    } else if (o.command.empty() && (a == "pull" || a == "push" || a == "run")) {
      o.command = a;
      if (a == "run") {
        ++i;
        if (i < argc && std::string(argv[i]) == "--") ++i;
        for (; i < argc; ++i) o.run_args.emplace_back(argv[i]);
        break;
      }
    } else if (o.command.empty()) {
      usage_error("unknown command or option '" + a + "'");
    } else {
      usage_error("unknown option '" + a + "' for " + o.command);
    }
  }
  if (o.command.empty()) usage_error("missing command (pull, push or run)");
  if (o.command == "run" && o.run_args.empty()) usage_error("run needs a COMMAND");
  if (o.url.empty())
    if (const char* u = std::getenv("ENV_VAULT_URL")) o.url = u;
  if (o.url.empty()) usage_error("no address: set ENV_VAULT_URL or pass --url");
  while (!o.url.empty() && o.url.back() == '/') o.url.pop_back();
  if (!o.token_file.empty()) {
    auto text = read_file(o.token_file);
    if (!text) fail("cannot read token file " + o.token_file + ": " + std::strerror(errno));
    o.token = trim(*text);
  } else if (const char* t = std::getenv("ENV_VAULT_TOKEN")) {
    o.token = trim(t);
  }
  if (o.token.empty()) usage_error("no token: set ENV_VAULT_TOKEN or pass --token-file");
  return o;
}

// POSTs or GETs `path` and returns the envelope's data; exits with the envelope's error otherwise.
json::value call(const Options& o, const std::string& method, const std::string& path,
                 const std::string& body) {
  httplib::Client client(o.url);
  if (!client.is_valid()) fail("cannot use address '" + o.url + "'");
  client.set_connection_timeout(10, 0);
  client.set_read_timeout(60, 0);
  client.set_tcp_nodelay(true);
  httplib::Headers headers{{"Authorization", "Bearer " + o.token}};
  auto res =
      method == "GET" ? client.Get(path, headers) : client.Post(path, headers, body, "application/json");
  if (!res) fail("no answer from " + o.url + ": " + httplib::to_string(res.error()));
  auto parsed = core::parse_json_object(res->body);
  if (!parsed) fail("unexpected answer from the server (HTTP " + std::to_string(res->status) + ")");
  if (res->status < 200 || res->status >= 300) {
    const json::value* e = parsed->if_contains("error");
    std::string why = e && e->is_string() ? std::string(e->get_string()) : "unknown error";
    fail(why + " (HTTP " + std::to_string(res->status) + ")");
  }
  return parsed->contains("data") ? parsed->at("data") : json::value(nullptr);
}

struct Fetched {
  std::int64_t version = 0;
  core::vault::DotenvEntries entries;
};

Fetched fetch(const Options& o, bool only_public) {
  json::value data = only_public ? call(o, "GET", "/api/env-vault/public", "")
                                 : call(o, "POST", "/api/env-vault/fetch", "{}");
  Fetched out;
  if (!data.is_object()) fail("unexpected answer from the server");
  const auto& d = data.get_object();
  if (auto* v = d.if_contains("version"); v && v->is_int64()) out.version = v->get_int64();
  if (auto* vars = d.if_contains("variables"); vars && vars->is_object())
    for (const auto& [k, v] : vars->get_object())
      if (v.is_object())
        if (auto* value = v.get_object().if_contains("value"); value && value->is_string())
          out.entries[std::string(k)] = std::string(value->get_string());
  return out;
}

int pull(const Options& o) {
  Fetched f = fetch(o, o.public_only);
  const std::string text =
      core::vault::write_dotenv(f.entries, "pulled by env-vault: version " + std::to_string(f.version));
  // Written beside the target, then renamed over it: a reader never sees half a file.
  const std::string tmp = o.file + ".env-vault-tmp";
  {
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) fail("cannot write " + tmp + ": " + std::strerror(errno));
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        ::close(fd);
        fail("cannot write " + tmp + ": " + std::strerror(errno));
      }
      done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) fail("cannot write " + tmp + ": " + std::strerror(errno));
  }
  if (std::rename(tmp.c_str(), o.file.c_str()) != 0)
    fail("cannot replace " + o.file + ": " + std::strerror(errno));
  std::cerr << "env-vault: wrote " << f.entries.size() << " variables of version " << f.version << " to "
            << o.file << "\n";
  return 0;
}

int push(const Options& o) {
  auto text = read_file(o.file);
  if (!text) fail("cannot read " + o.file + ": " + std::strerror(errno));
  auto entries = core::vault::parse_dotenv(*text);
  if (!entries) fail(o.file + ": " + entries.error().message);
  for (const auto& k : o.public_keys)
    if (!entries->contains(k)) fail("--public names " + k + ", which " + o.file + " does not set");
  json::object vars;
  for (const auto& [k, v] : *entries)
    vars[k] = json::object{{"value", v}, {"public", o.public_keys.contains(k)}};
  json::object body{{"variables", std::move(vars)}, {"prune", o.prune}};
  if (!o.base_version.empty()) body["baseVersion"] = std::stoll(o.base_version);
  json::value data = call(o, "POST", "/api/env-vault/push", core::to_json(body));
  auto n = [&](const char* key) -> long long {
    auto* v = data.is_object() ? data.get_object().if_contains(key) : nullptr;
    return v && v->is_int64() ? v->get_int64() : 0;
  };
  std::cerr << "env-vault: pushed version " << n("version") << ": " << n("keys") << " variables ("
            << n("added") << " added, " << n("changed") << " changed, " << n("removed") << " removed)\n";
  return 0;
}

int run(const Options& o) {
  Fetched f = fetch(o, false);
  for (const auto& [k, v] : f.entries)
    if (::setenv(k.c_str(), v.c_str(), 1) != 0) fail("cannot set " + k + ": " + std::strerror(errno));
  // The token is for this client, not for the command.
  ::unsetenv("ENV_VAULT_TOKEN");
  std::vector<char*> argv;
  for (const auto& a : o.run_args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execvp(argv[0], argv.data());
  std::cerr << "env-vault: cannot run " << o.run_args[0] << ": " << std::strerror(errno) << "\n";
  return 127;
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse(argc, argv);
  if (o.command == "pull") return pull(o);
  if (o.command == "push") return push(o);
  return run(o);
}
