#include "core/vault/variables.h"

namespace core::vault {

namespace {

bool key_start(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
bool key_char(char c) {
  return key_start(c) || (c >= '0' && c <= '9');
}

std::string shown(std::string_view key) {
  // Keys in messages are cut short so a huge bad key does not make a huge error.
  return key.size() > 64 ? std::string(key.substr(0, 64)) + "..." : std::string(key);
}

Error too_many() {
  return make_error("too_many_variables",
                    "an environment holds at most " + std::to_string(kMaxVariables) + " variables");
}

Status check_totals(const Variables& vars) {
  if (vars.size() > kMaxVariables) return too_many();
  std::size_t total = 0;
  for (const auto& [k, v] : vars) total += v.value.size();
  if (total > kMaxTotalValueBytes)
    return make_error("value_too_large", "the values of an environment total at most " +
                                             std::to_string(kMaxTotalValueBytes) + " bytes");
  return {};
}

}  // namespace

Status validate_key(std::string_view key) {
  if (key.empty()) return make_error("invalid_key", "a variable name must not be empty");
  if (key.size() > kMaxKeyLength)
    return make_error("invalid_key", "variable name '" + shown(key) + "' is longer than " +
                                         std::to_string(kMaxKeyLength) + " characters");
  bool ok = key_start(key[0]);
  for (char c : key) ok = ok && key_char(c);
  if (!ok)
    return make_error("invalid_key", "variable name '" + shown(key) +
                                         "' must match [A-Za-z_][A-Za-z0-9_]* (letters, digits, underscores; "
                                         "not starting with a digit)");
  return {};
}

Status validate_value(std::string_view key, std::string_view value) {
  if (value.find('\0') != std::string_view::npos)
    return make_error("invalid_value", "the value of '" + shown(key) + "' contains a NUL character");
  if (value.size() > kMaxValueBytes)
    return make_error("value_too_large", "the value of '" + shown(key) + "' is longer than " +
                                             std::to_string(kMaxValueBytes) + " bytes");
  return {};
}

Result<PushRequest> parse_push(const json::object& body) {
  PushRequest out;
  const json::value* vars = body.if_contains("variables");
  if (!vars || !vars->is_object())
    return make_error("invalid_body", "'variables' must be an object of {KEY: {value, public?}}");
  if (vars->get_object().size() > kMaxVariables) return too_many();
  for (const auto& [k, v] : vars->get_object()) {
    const std::string_view key(k.data(), k.size());
    if (auto st = validate_key(key); !st.ok()) return st.error();
    Variable var;
    if (v.is_string()) {
      var.value = std::string(v.get_string());
    } else if (v.is_object()) {
      const auto& o = v.get_object();
      const json::value* value = o.if_contains("value");
      if (!value || !value->is_string())
        return make_error("invalid_body", "variables." + shown(key) + ".value must be a string");
      var.value = std::string(value->get_string());
      if (const json::value* p = o.if_contains("public"); p && !p->is_null()) {
        if (!p->is_bool())
          return make_error("invalid_body", "variables." + shown(key) + ".public must be a boolean");
        var.is_public = p->get_bool();
      }
      for (const auto& member : o)
        if (member.key() != "value" && member.key() != "public")
          return make_error("invalid_body", "variables." + shown(key) + " has an unknown member '" +
                                                std::string(member.key()) + "'");
    } else {
      return make_error("invalid_body", "variables." + shown(key) + " must be {value, public?} or a string");
    }
    if (auto st = validate_value(key, var.value); !st.ok()) return st.error();
    out.variables.emplace(std::string(key), std::move(var));
  }
  if (const json::value* p = body.if_contains("prune"); p && !p->is_null()) {
    if (!p->is_bool()) return make_error("invalid_body", "'prune' must be a boolean");
    out.prune = p->get_bool();
  }
  if (const json::value* b = body.if_contains("baseVersion"); b && !b->is_null()) {
    if (!b->is_int64() && !b->is_uint64())
      return make_error("invalid_body", "'baseVersion' must be a non-negative integer");
    const std::int64_t n = b->is_int64() ? b->get_int64() : -1;
    if (n < 0) return make_error("invalid_body", "'baseVersion' must be a non-negative integer");
    out.base_version = n;
  }
  for (const auto& member : body)
    if (member.key() != "variables" && member.key() != "prune" && member.key() != "baseVersion")
      return make_error("invalid_body", "unknown member '" + std::string(member.key()) +
                                            "'; a push carries variables, prune and baseVersion");
  if (auto st = check_totals(out.variables); !st.ok()) return st.error();
  return out;
}

Result<Variables> merge_push(const Variables& current, const PushRequest& push) {
  Variables out = push.prune ? Variables{} : current;
  for (const auto& [k, v] : push.variables) out[k] = v;
  if (auto st = check_totals(out); !st.ok()) return st.error();
  return out;
}

Diff diff(const Variables& before, const Variables& after) {
  Diff d;
  for (const auto& [k, v] : after) {
    auto it = before.find(k);
    if (it == before.end())
      d.added.push_back(k);
    else if (!(it->second == v))
      d.changed.push_back(k);
  }
  for (const auto& [k, v] : before)
    if (!after.contains(k)) d.removed.push_back(k);
  return d;
}

json::object diff_to_json(const Diff& d) {
  auto arr = [](const std::vector<std::string>& v) {
    json::array a;
    for (const auto& s : v) a.emplace_back(s);
    return a;
  };
  return json::object{{"added", arr(d.added)}, {"removed", arr(d.removed)}, {"changed", arr(d.changed)}};
}

}  // namespace core::vault
