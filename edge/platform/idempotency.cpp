#include "edge/platform/idempotency.h"

#include <algorithm>
#include <vector>

#include "core/crypto.h"
#include "core/date.h"
#include "core/json.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"

namespace edge {
namespace {

namespace json = core::json;

// `v` with every object's members sorted by name, so that two bodies meaning the same request (members in
// another order, other whitespace) have one text.
json::value canonical(const json::value& v) {
  if (v.is_object()) {
    std::vector<std::pair<std::string, const json::value*>> members;
    for (const auto& [k, m] : v.get_object()) members.emplace_back(std::string(k), &m);
    std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    json::object out;
    for (const auto& [k, m] : members) out[k] = canonical(*m);
    return out;
  }
  if (v.is_array()) {
    json::array out;
    for (const auto& e : v.get_array()) out.push_back(canonical(e));
    return out;
  }
  return v;
}

// SHA-256 hex of the route, the query parameters (in name order) and the body: canonical JSON when it
// parses as JSON, else the bytes as sent (the CSV import's raw form).
std::string fingerprint_of(std::string_view route, const Request& req) {
  json::array query;
  for (const auto& [name, value] : req.query)
    query.emplace_back(json::array{json::value(name), json::value(value)});
  json::value body;
  if (auto parsed = core::parse_json(req.body))
    body = json::object{{"json", canonical(*parsed)}};
  else
    body = json::object{{"raw", req.body}};
  return core::sha256_hex(core::to_json(json::object{{"route", route}, {"query", query}, {"body", body}}));
}

// The answer recorded under a key, for a request with `fingerprint`: the replay or 409.
Response answer_for(const json::object& rec, std::string_view fingerprint, const IdempotencyErrors& errors) {
  if (record::str(rec, "fingerprint") != fingerprint)
    return errors(409, "idempotency_conflict",
                  "this Idempotency-Key was already used with a different request (route " +
                      record::str(rec, "route") + "); use a new key for a new request");
  Response r;
  r.status = static_cast<int>(record::num(rec, "status"));
  r.body = record::str(rec, "body");
  r.set_header("Idempotent-Replayed", "true");
  return r;
}

}  // namespace

std::optional<Response> IdempotentWrite::begin(App& app, const Request& req, std::string_view route) {
  auto it = req.headers.find("idempotency-key");
  if (it == req.headers.end()) return std::nullopt;
  const std::string& key = it->second;
  if (key.empty() || key.size() > kMaxIdempotencyKeyBytes)
    return errors_(422, "invalid_field", "header 'Idempotency-Key' must be 1 to 255 bytes");
  // Hashed: a client key may be long and hold any character, '/' included.
  store_key_ = scope_prefix_ + "/" + core::sha256_hex(key);
  route_ = std::string(route);
  fingerprint_ = fingerprint_of(route, req);
  std::optional<std::string> stored;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    stored = txn.get(table_, store_key_);
    return {};
  });
  if (!st.ok()) return errors_(500, "storage_error", st.error().message);
  if (!stored) return std::nullopt;
  auto rec = core::parse_json_object(*stored);
  if (!rec) return errors_(500, "storage_error", "unreadable idempotency record");
  return answer_for(*rec, fingerprint_, errors_);
}

core::Result<Response> IdempotentWrite::write(
    App& app, const std::function<core::Result<Response>(store::WriteTxn& txn)>& create) const {
  std::string now = core::format_timestamp(app.clock.now_ms());
  std::optional<Response> answer;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    answer.reset();
    if (!store_key_.empty()) {
      if (auto known = txn.get(table_, store_key_)) {
        auto rec = core::parse_json_object(*known);
        if (!rec) return core::make_error("storage_error", "unreadable idempotency record");
        answer = answer_for(*rec, fingerprint_, errors_);
        return {};  // nothing written: the first request's effect stands
      }
    }
    auto made = create(txn);
    if (!made) return made.error();
    if (!store_key_.empty() && made->status >= 200 && made->status < 300)
      txn.put(table_, store_key_,
              core::to_json(json::object{{"route", route_},
                                         {"fingerprint", fingerprint_},
                                         {"status", made->status},
                                         {"body", made->body},
                                         {"createdAt", now}}));
    answer = std::move(*made);
    return {};
  });
  if (!st.ok()) return st.error();
  return std::move(*answer);
}

}  // namespace edge
