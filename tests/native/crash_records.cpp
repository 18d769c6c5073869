#include "tests/native/crash_records.h"

#include <boost/json.hpp>

#include <charconv>
#include <cstdio>
#include <optional>

namespace crash {
namespace {

struct Record {
  std::uint64_t n = 0;
  std::uint64_t v = 0;
  std::string pad;
  std::string sum;
};

std::string padded(std::uint64_t n) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%010llu", static_cast<unsigned long long>(n));
  return buf;
}

std::string record_key(std::uint64_t n) {
  return "rec/" + padded(n);
}
std::string index_key(std::string_view sum, std::uint64_t n) {
  return "idx/" + std::string(sum) + "/" + padded(n);
}

std::string pad_for(std::uint64_t n, std::uint64_t v) {
  const std::size_t size = 50 + (n * 2654435761u + v * 40503u) % 2951;
  std::string pad(size, ' ');
  for (std::size_t i = 0; i < size; ++i) pad[i] = static_cast<char>('a' + (n + v * 7 + i) % 26);
  return pad;
}

// FNV-1a 64 over n, v and pad, as 16 hex digits.
std::string checksum(std::uint64_t n, std::uint64_t v, std::string_view pad) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&](std::string_view bytes) {
    for (unsigned char c : bytes) {
      h ^= c;
      h *= 1099511628211ull;
    }
  };
  mix(std::to_string(n) + "/" + std::to_string(v) + "/");
  mix(pad);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

Record make_record(std::uint64_t n, std::uint64_t v) {
  Record r{n, v, pad_for(n, v), {}};
  r.sum = checksum(n, v, r.pad);
  return r;
}

std::string encode(const Record& r) {
  boost::json::object o;
  o["n"] = r.n;
  o["v"] = r.v;
  o["pad"] = r.pad;
  o["sum"] = r.sum;
  return boost::json::serialize(o);
}

std::optional<Record> decode(std::string_view text) {
  boost::json::error_code ec;
  const boost::json::value value = boost::json::parse(text, ec);
  if (ec || !value.is_object()) return std::nullopt;
  const auto& o = value.get_object();
  const auto* n = o.if_contains("n");
  const auto* v = o.if_contains("v");
  const auto* pad = o.if_contains("pad");
  const auto* sum = o.if_contains("sum");
  if (!n || !v || !pad || !sum || !n->is_number() || !v->is_number() || !pad->is_string() ||
      !sum->is_string()) {
    return std::nullopt;
  }
  Record r;
  r.n = n->to_number<std::uint64_t>(ec);
  if (ec) return std::nullopt;
  r.v = v->to_number<std::uint64_t>(ec);
  if (ec) return std::nullopt;
  r.pad = std::string(pad->get_string());
  r.sum = std::string(sum->get_string());
  return r;
}

std::optional<std::uint64_t> parse_number(std::string_view s) {
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return n;
}

}  // namespace

core::Status write_record(store::WriteTxn& txn, store::Table t, std::uint64_t n) {
  if (txn.get(t, record_key(n)))
    return core::make_error("duplicate", "record " + std::to_string(n) + " exists");
  const Record r = make_record(n, 1);
  txn.put(t, record_key(n), encode(r));
  txn.put(t, index_key(r.sum, n), std::to_string(n));

  const std::uint64_t count = parse_number(txn.get(t, "meta/count").value_or("0")).value_or(0);
  txn.put(t, "meta/count", std::to_string(count + 1));

  // Bump an earlier record's version: its value and its index entry change together.
  const std::uint64_t m = n / 2;
  if (m != n) {
    if (auto old_text = txn.get(t, record_key(m))) {
      const auto old = decode(*old_text);
      if (!old) return core::make_error("corrupt", "record " + std::to_string(m) + " does not parse");
      if (!txn.erase(t, index_key(old->sum, m))) {
        return core::make_error("corrupt", "record " + std::to_string(m) + " has no index entry");
      }
      const Record bumped = make_record(m, old->v + 1);
      txn.put(t, record_key(m), encode(bumped));
      txn.put(t, index_key(bumped.sum, m), std::to_string(m));
    }
  }
  if (fails_on_purpose(n))
    return core::make_error("rejected", "write " + std::to_string(n) + " fails on purpose");
  return {};
}

CheckResult check_store(const store::ReadTxn& txn, store::Table t,
                        const std::set<std::uint64_t>& acknowledged) {
  CheckResult result;
  auto problem = [&](std::string text) {
    if (result.problems.size() < 20) result.problems.push_back(std::move(text));
  };

  std::set<std::uint64_t> present;
  txn.scan(t, "rec/", [&](std::string_view key, std::string_view value) {
    const auto n = parse_number(key.substr(4));
    const auto r = decode(value);
    if (!n || !r) {
      problem("unreadable record " + std::string(key));
      return true;
    }
    present.insert(*n);
    result.next_n = std::max(result.next_n, *n + 1);
    if (r->n != *n) problem(std::string(key) + " holds record " + std::to_string(r->n));
    if (r->v < 1 || r->pad != pad_for(*n, r->v) || r->sum != checksum(*n, r->v, r->pad)) {
      problem(std::string(key) + " has a torn or wrong value");
    }
    if (fails_on_purpose(*n)) problem(std::string(key) + " was written by a write that failed");
    if (txn.get(t, index_key(r->sum, *n)) != std::to_string(*n))
      problem(std::string(key) + " has no index entry");
    return true;
  });
  result.records = present.size();

  std::uint64_t index_entries = 0;
  txn.scan(t, "idx/", [&](std::string_view key, std::string_view value) {
    ++index_entries;
    // idx/<16 hex>/<10 digits>
    const std::string_view rest = key.substr(4);
    const auto slash = rest.find('/');
    const auto n = slash == std::string_view::npos ? std::nullopt : parse_number(rest.substr(slash + 1));
    if (!n || parse_number(value) != n) {
      problem("malformed index entry " + std::string(key));
      return true;
    }
    const auto record = txn.get(t, record_key(*n));
    const auto r = record ? decode(*record) : std::nullopt;
    if (!r || r->sum != rest.substr(0, slash))
      problem("index entry " + std::string(key) + " has no matching record");
    return true;
  });
  if (index_entries != result.records) {
    problem(std::to_string(index_entries) + " index entries for " + std::to_string(result.records) +
            " records");
  }

  const auto count = txn.get(t, "meta/count");
  if (count.value_or("0") != std::to_string(result.records)) {
    problem("meta/count is " + count.value_or("absent") + " but " + std::to_string(result.records) +
            " records exist");
  }

  std::uint64_t lost = 0;
  for (std::uint64_t n : acknowledged) {
    if (!present.count(n)) {
      if (lost++ < 5) problem("acknowledged record " + std::to_string(n) + " is missing");
    }
  }
  if (lost > 0) problem(std::to_string(lost) + " acknowledged records are missing");
  return result;
}

}  // namespace crash
