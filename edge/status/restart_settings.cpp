#include "edge/status/restart_settings.h"

#include <algorithm>
#include <climits>

#include "edge/app.h"
#include "native/crypto/aes_gcm_seal.h"

namespace edge::status {
namespace {

namespace cs = core::status;

// Each type's members in one place; every visitor below walks the same list. `secret` members are never
// shown: `flag_name` is what a response shows instead.
template <class V>
void members(cs::HttpRestartTarget& t, V& v) {
  v.text("method", t.method);
  v.text("url", t.url);
  v.text("authHeaderName", t.authHeaderName);
  v.secret("authHeaderValue", "hasAuthHeader", t.authHeaderValue);
  v.text("body", t.body);
  v.text("contentType", t.contentType);
  v.integer("expectedStatusMin", t.expectedStatusMin);
  v.integer("expectedStatusMax", t.expectedStatusMax);
  v.integer("timeoutMs", t.timeoutMs);
}
template <class V>
void members(cs::SshRestartTarget& t, V& v) {
  v.text("host", t.host);
  v.integer("port", t.port);
  v.text("user", t.user);
  v.secret("privateKeyPem", "hasPrivateKey", t.privateKeyPem);
  v.secret("passphrase", "hasPassphrase", t.passphrase);
  v.text("command", t.command);
  v.text("hostKeyFingerprint", t.hostKeyFingerprint);
  v.flag("trustOnFirstUse", t.trustOnFirstUse);
  v.integer("timeoutMs", t.timeoutMs);
}
template <class V>
void members(cs::DeployRestartTarget& t, V& v) {
  v.text("baseUrl", t.baseUrl);
  v.text("uuid", t.uuid);
  v.secret("apiToken", "hasApiToken", t.apiToken);
  v.integer("timeoutMs", t.timeoutMs);
}

template <class V>
void visit_members(RestartSettings& s, V& v) {
  std::visit([&](auto& t) { members(t, v); }, s);
}

std::string field_error(std::string_view key, std::string_view what) {
  return "field 'settings." + std::string(key) + "' must be " + std::string(what);
}

// Reads the request's members; the first type error wins.
struct Applier {
  const json::object& body;
  core::Status status;

  void text(std::string_view key, std::string& out) {
    const json::value* v = body.if_contains(key);
    if (!status.ok() || v == nullptr) return;
    if (v->is_null()) {
      out.clear();
    } else if (v->is_string()) {
      out = std::string(v->get_string());
    } else {
      status = core::make_error("invalid_field", field_error(key, "a string or null"));
    }
  }
  void secret(std::string_view key, std::string_view, std::string& out) { text(key, out); }
  void integer(std::string_view key, int& out) {
    if (!status.ok()) return;
    auto n = core::optional_int(body, key);
    if (!n) {
      status = core::make_error("invalid_field", field_error(key, "an integer"));
    } else if (*n) {
      // Out-of-range integers saturate, so the core's range check refuses them.
      out = static_cast<int>(std::clamp<std::int64_t>(**n, INT_MIN, INT_MAX));
    }
  }
  void flag(std::string_view key, bool& out) {
    if (!status.ok()) return;
    auto b = core::optional_bool(body, key);
    if (!b)
      status = core::make_error("invalid_field", field_error(key, "a boolean"));
    else if (*b)
      out = **b;
  }
};

// The settings without secrets; `flags` adds the has* members.
struct Viewer {
  json::object out;
  bool flags = true;

  void text(std::string_view key, std::string& v) { out[key] = v; }
  void secret(std::string_view, std::string_view flag_name, std::string& v) {
    if (flags) out[flag_name] = !v.empty();
  }
  void integer(std::string_view key, int& v) { out[key] = v; }
  void flag(std::string_view key, bool& v) { out[key] = v; }
};

std::string associated(std::string_view record_key, std::string_view member) {
  return std::string(record_key) + "#" + std::string(member);
}

struct Sealer {
  App& app;
  std::string_view record_key;
  json::object sealed;

  void text(std::string_view, std::string&) {}
  void secret(std::string_view key, std::string_view, std::string& v) {
    if (!v.empty())
      sealed[key] = native::crypto::seal_aes_gcm(app.secret_key, v, associated(record_key, key), app.random);
  }
  void integer(std::string_view, int&) {}
  void flag(std::string_view, bool&) {}
};

// Reads the stored record: plain members from `settings`, secrets from `sealed`.
struct Loader {
  App& app;
  std::string_view record_key;
  const json::object& plain;
  const json::object& sealed;
  core::Status status;

  void text(std::string_view key, std::string& out) {
    if (auto* v = plain.if_contains(key); v && v->is_string()) out = std::string(v->get_string());
  }
  void secret(std::string_view key, std::string_view, std::string& out) {
    out.clear();
    auto* v = sealed.if_contains(key);
    if (!status.ok() || v == nullptr || !v->is_string()) return;
    auto opened =
        native::crypto::unseal_aes_gcm(app.secret_key, v->get_string(), associated(record_key, key));
    if (!opened)
      status = opened.error();
    else
      out = std::move(*opened);
  }
  void integer(std::string_view key, int& out) {
    if (auto* v = plain.if_contains(key); v && v->is_int64())
      out = static_cast<int>(std::clamp<std::int64_t>(v->get_int64(), INT_MIN, INT_MAX));
  }
  void flag(std::string_view key, bool& out) {
    if (auto* v = plain.if_contains(key); v && v->is_bool()) out = v->get_bool();
  }
};

const json::object& object_member(const json::object& o, std::string_view key) {
  static const json::object empty;
  auto* v = o.if_contains(key);
  return v && v->is_object() ? v->get_object() : empty;
}

}  // namespace

cs::RestartTargetType type_of(const RestartSettings& settings) {
  return static_cast<cs::RestartTargetType>(settings.index());
}

RestartSettings default_settings(cs::RestartTargetType type) {
  switch (type) {
    case cs::RestartTargetType::http:
      return cs::HttpRestartTarget{};
    case cs::RestartTargetType::ssh:
      return cs::SshRestartTarget{};
    case cs::RestartTargetType::deploy:
      break;
  }
  return cs::DeployRestartTarget{};
}

core::Status apply_settings(const json::object& body, RestartSettings& settings) {
  Applier applier{body, {}};
  visit_members(settings, applier);
  return applier.status;
}

core::Status validate_settings(const RestartSettings& settings) {
  return std::visit(
      [](const auto& t) -> core::Status {
        using T = std::decay_t<decltype(t)>;
        if constexpr (std::is_same_v<T, cs::HttpRestartTarget>) return cs::validate_http_restart_target(t);
        if constexpr (std::is_same_v<T, cs::SshRestartTarget>) return cs::validate_ssh_restart_target(t);
        if constexpr (std::is_same_v<T, cs::DeployRestartTarget>)
          return cs::validate_deploy_restart_target(t);
      },
      settings);
}

json::object settings_view(const RestartSettings& settings) {
  RestartSettings copy = settings;
  Viewer viewer;
  visit_members(copy, viewer);
  return std::move(viewer.out);
}

json::object stored_settings_view(const json::object& target) {
  auto* type_name = target.if_contains("type");
  auto type =
      cs::parse_restart_target_type(type_name && type_name->is_string() ? type_name->get_string() : "");
  if (!type) return {};
  RestartSettings settings = default_settings(*type);
  // The plain members as stored; each stored secret as a placeholder, which only sets its flag.
  Applier plain{object_member(target, "settings"), {}};
  visit_members(settings, plain);
  json::object present;
  for (auto& [member, _] : object_member(target, "sealed")) present[member] = "x";
  Applier flags{present, {}};
  visit_members(settings, flags);
  return settings_view(settings);
}

void store_settings(App& app, std::string_view record_key, const RestartSettings& settings,
                    json::object& target) {
  RestartSettings copy = settings;
  Viewer plain;
  plain.flags = false;
  visit_members(copy, plain);
  Sealer sealer{app, record_key, {}};
  visit_members(copy, sealer);
  target["settings"] = std::move(plain.out);
  target["sealed"] = std::move(sealer.sealed);
}

core::Result<RestartSettings> load_settings(App& app, std::string_view record_key,
                                            const json::object& target) {
  auto* type_name = target.if_contains("type");
  auto type =
      cs::parse_restart_target_type(type_name && type_name->is_string() ? type_name->get_string() : "");
  if (!type) return type.error();
  RestartSettings settings = default_settings(*type);
  Loader loader{app, record_key, object_member(target, "settings"), object_member(target, "sealed"), {}};
  visit_members(settings, loader);
  if (!loader.status.ok()) return loader.status.error();
  return settings;
}

}  // namespace edge::status
