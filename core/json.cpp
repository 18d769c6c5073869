#include "core/json.h"

namespace core {
namespace {

const json::value* find(const json::object& o, std::string_view key) {
  auto it = o.find(key);
  if (it == o.end() || it->value().is_null()) return nullptr;
  return &it->value();
}

Error missing(std::string_view key) {
  return make_error("missing_field", "field '" + std::string(key) + "' is required");
}

Error wrong_type(std::string_view key, std::string_view what) {
  return make_error("invalid_field", "field '" + std::string(key) + "' must be " + std::string(what));
}

Result<std::int64_t> as_int(const json::value& v, std::string_view key) {
  if (v.is_int64()) return v.get_int64();
  if (v.is_uint64()) {
    if (v.get_uint64() > static_cast<std::uint64_t>(INT64_MAX)) return wrong_type(key, "an integer in range");
    return static_cast<std::int64_t>(v.get_uint64());
  }
  return wrong_type(key, "an integer");
}

Result<std::vector<std::string>> as_string_array(const json::value& v, std::string_view key) {
  const json::array* a = v.if_array();
  if (!a) return wrong_type(key, "an array of strings");
  std::vector<std::string> out;
  out.reserve(a->size());
  for (const json::value& e : *a) {
    const json::string* s = e.if_string();
    if (!s) return wrong_type(key, "an array of strings");
    out.emplace_back(s->data(), s->size());
  }
  return out;
}

}  // namespace

Result<json::value> parse_json(std::string_view text) {
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec) return make_error("invalid_json", "request body is not valid JSON");
  return v;
}

Result<json::object> parse_json_object(std::string_view text) {
  auto v = parse_json(text);
  if (!v) return v.error();
  if (!v->is_object()) return make_error("invalid_body", "request body must be a JSON object");
  return std::move(v->get_object());
}

Result<json::object> parse_json_object(std::string_view text, json::storage_ptr storage) {
  boost::system::error_code ec;
  json::value v = json::parse(text, ec, std::move(storage));
  if (ec) return make_error("invalid_json", "request body is not valid JSON");
  if (!v.is_object()) return make_error("invalid_body", "request body must be a JSON object");
  return std::move(v.get_object());
}

std::string to_json(const json::value& v) {
  return json::serialize(v);
}

Result<std::string> require_string(const json::object& o, std::string_view key) {
  const json::value* v = find(o, key);
  if (!v) return missing(key);
  const json::string* s = v->if_string();
  if (!s) return wrong_type(key, "a string");
  return std::string(s->data(), s->size());
}

Result<std::optional<std::string>> optional_string(const json::object& o, std::string_view key) {
  const json::value* v = find(o, key);
  if (!v) return std::optional<std::string>();
  const json::string* s = v->if_string();
  if (!s) return wrong_type(key, "a string");
  return std::optional<std::string>(std::string(s->data(), s->size()));
}

Result<std::int64_t> require_int(const json::object& o, std::string_view key) {
  const json::value* v = find(o, key);
  if (!v) return missing(key);
  return as_int(*v, key);
}

Result<std::optional<std::int64_t>> optional_int(const json::object& o, std::string_view key) {
  const json::value* v = find(o, key);
  if (!v) return std::optional<std::int64_t>();
  auto i = as_int(*v, key);
  if (!i) return i.error();
  return std::optional<std::int64_t>(*i);
}

Result<bool> require_bool(const json::object& o, std::string_view key) {
  const json::value* v = find(o, key);
  if (!v) return missing(key);
  if (!v->is_bool()) return wrong_type(key, "a boolean");
  return v->get_bool();
}

Result<std::optional<bool>> optional_bool(const json::object& o, std::string_view key) {
  const json::value* v = find(o, key);
  if (!v) return std::optional<bool>();
  if (!v->is_bool()) return wrong_type(key, "a boolean");
  return std::optional<bool>(v->get_bool());
}

Result<std::vector<std::string>> require_string_array(const json::object& o, std::string_view key) {
  const json::value* v = find(o, key);
  if (!v) return missing(key);
  return as_string_array(*v, key);
}

Result<std::optional<std::vector<std::string>>> optional_string_array(const json::object& o,
                                                                      std::string_view key) {
  const json::value* v = find(o, key);
  if (!v) return std::optional<std::vector<std::string>>();
  auto a = as_string_array(*v, key);
  if (!a) return a.error();
  return std::optional<std::vector<std::string>>(std::move(*a));
}

}  // namespace core
