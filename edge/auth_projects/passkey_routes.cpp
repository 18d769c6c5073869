// The passkey endpoints of an auth project (docs/auth-passkeys.md), called with the project key by the
// app's backend, which passes options to the browser and the browser's PublicKeyCredential JSON back:
//   POST /passkeys/register/options {accessToken}           -> {options, ceremonyId, expiresIn}
//   POST /passkeys/register/verify  {ceremonyId, credential, name?} -> the passkey (201)
//   POST /passkeys/list             {accessToken}           -> the user's passkeys
//   POST /passkeys/delete           {accessToken, passkeyId}
//   POST /passkeys/login/options    {}                      -> {options, ceremonyId, expiresIn}
//   POST /passkeys/login/verify     {ceremonyId, credential} -> {user, accessToken, refreshToken, ...}
// Every one answers 403 while signInMethods.passkey is off. Binary members travel as base64url without
// padding, as WebAuthn Level 3's toJSON() and parse*OptionsFromJSON() have them.

#include <algorithm>
#include <array>

#include "core/crypto.h"
#include "edge/app.h"
#include "edge/auth_projects/auth_routes.h"
#include "edge/auth_projects/passkey_ceremonies.h"
#include "edge/auth_projects/passkey_store.h"
#include "edge/auth_projects/project_api.h"
#include "edge/platform/envelope.h"
#include "edge/platform/record_json.h"

namespace edge::auth_projects {
namespace {

namespace webauthn = core::webauthn;

constexpr std::int64_t kTimeoutMs = kCeremonyLifetimeMs;  // what the browser waits: the ceremony's life
constexpr std::array<std::string_view, 6> kKnownTransports = {"ble", "hybrid",     "internal",
                                                              "nfc", "smart-card", "usb"};

Response method_off() {
  return envelope_error(403, "passkey sign-in is turned off for this project");
}
Response ceremony_refused() {
  return envelope_unauthorized("the passkey ceremony is unknown, expired or already used");
}

// The project's passkey settings while the method is on; null otherwise.
const core::auth::PasskeySettings* passkeys_on(const Project& p) {
  if (!p.settings.sign_in_methods.passkey || !p.settings.passkeys) return nullptr;
  return &*p.settings.passkeys;
}

// The body as an object; an empty body is `{}` (login/options has nothing to say).
std::variant<json::object, Response> body_of(const Request& req) {
  if (req.body.empty()) return json::object{};
  return json_body(req);
}

// A base64url member of `o`, shown as `path` in messages. Padding is tolerated (some server libraries add
// it); anything else outside the alphabet is not.
core::Result<core::Bytes> b64_member(const json::object& o, std::string_view key, const std::string& path) {
  auto* v = o.if_contains(key);
  if (!v || v->is_null()) return core::make_error("missing_field", "field '" + path + "' is required");
  if (!v->is_string()) return core::make_error("invalid_field", "field '" + path + "' must be a string");
  std::string_view text = v->get_string();
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  auto decoded = core::base64url_decode(text);
  if (!decoded) return core::make_error("invalid_field", "field '" + path + "' must be base64url");
  return decoded;
}

const json::object* object_member(const json::object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  return v && v->is_object() ? &v->get_object() : nullptr;
}

// The browser's PublicKeyCredential as JSON (its toJSON(), or the same built by hand).
struct CredentialJson {
  core::Bytes raw_id;
  core::Bytes client_data_json;
  core::Bytes attestation_object;  // registration
  std::vector<std::string> transports;
  core::Bytes authenticator_data, signature, user_handle;  // authentication
};

std::variant<CredentialJson, Response> parse_credential(const json::object& body, CeremonyKind kind) {
  auto* member = body.if_contains("credential");
  if (!member || member->is_null()) return envelope_error(400, "field 'credential' is required");
  if (!member->is_object()) return envelope_error(400, "field 'credential' must be an object");
  const json::object& c = member->get_object();
  CredentialJson out;
  auto id = b64_member(c, "id", "credential.id");
  if (!id) return envelope_error(id.error());
  if (id->empty() || id->size() > webauthn::kMaxCredentialIdLength)
    return envelope_error(400, "'credential.id' must be 1 to 1023 bytes");
  if (auto* raw = c.if_contains("rawId"); raw && !raw->is_null()) {
    auto raw_id = b64_member(c, "rawId", "credential.rawId");
    if (!raw_id) return envelope_error(raw_id.error());
    if (*raw_id != *id) return envelope_error(400, "'credential.id' and 'credential.rawId' differ");
  }
  out.raw_id = std::move(*id);
  if (auto type = core::optional_string(c, "type"); !type)
    return envelope_error(type.error());
  else if (*type && **type != "public-key")
    return envelope_error(400, "'credential.type' must be \"public-key\"");
  const json::object* response = object_member(c, "response");
  if (!response) return envelope_error(400, "field 'credential.response' must be an object");

  auto read = [&](std::string_view key, core::Bytes& into) -> std::optional<Response> {
    auto v = b64_member(*response, key, "credential.response." + std::string(key));
    if (!v) return envelope_error(v.error());
    into = std::move(*v);
    return std::nullopt;
  };
  if (auto r = read("clientDataJSON", out.client_data_json)) return std::move(*r);
  if (kind == CeremonyKind::registration) {
    if (auto r = read("attestationObject", out.attestation_object)) return std::move(*r);
    // Hints for later ceremonies: only the values WebAuthn defines, each once.
    if (auto* t = response->if_contains("transports"); t && t->is_array())
      for (const auto& e : t->get_array())
        if (e.is_string() &&
            std::find(kKnownTransports.begin(), kKnownTransports.end(), std::string_view(e.get_string())) !=
                kKnownTransports.end() &&
            std::find(out.transports.begin(), out.transports.end(), e.get_string()) == out.transports.end())
          out.transports.emplace_back(e.get_string());
  } else {
    if (auto r = read("authenticatorData", out.authenticator_data)) return std::move(*r);
    if (auto r = read("signature", out.signature)) return std::move(*r);
    // Absent or null when the authenticator kept no user handle (a non-discoverable credential).
    if (auto* h = response->if_contains("userHandle"); h && !h->is_null())
      if (auto r = read("userHandle", out.user_handle)) return std::move(*r);
  }
  return out;
}

std::string uuid_text(const std::array<std::uint8_t, 16>& b) {
  const std::string hex = core::hex_encode(b);
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4) + "-" +
         hex.substr(20);
}

json::object descriptor(const Passkey& p) {
  json::object d{{"type", "public-key"}, {"id", core::base64url_encode(p.credential_id)}};
  if (!p.transports.empty()) d["transports"] = record::array_of(p.transports);
  return d;
}

json::object ceremony_json(json::object options, const IssuedCeremony& issued) {
  return json::object{
      {"options", std::move(options)}, {"ceremonyId", issued.id}, {"expiresIn", kCeremonyLifetimeMs / 1000}};
}

// The signed-in user of the body's `accessToken`, or the response to answer.
std::variant<std::pair<EndUser, std::string>, Response> signed_in_user(App& app, const json::object& body,
                                                                       const Project& project) {
  auto token = core::require_string(body, "accessToken");
  if (!token) return envelope_error(token.error());
  std::pair<EndUser, std::string> out;
  if (auto refused = authenticate_end_user(app, *token, project, out.first, out.second))
    return std::move(*refused);
  return out;
}

Response register_options(App& app, Request& req, const ProjectContext& ctx) {
  const Project& project = ctx.project;
  const auto* settings = passkeys_on(project);
  if (!settings) return method_off();
  auto parsed = body_of(req);
  if (auto* r = std::get_if<Response>(&parsed)) return std::move(*r);
  auto who = signed_in_user(app, std::get<json::object>(parsed), project);
  if (auto* r = std::get_if<Response>(&who)) return std::move(*r);
  const auto& [user, session_id] = std::get<std::pair<EndUser, std::string>>(who);

  auto handle = passkey_user_handle(app, project.id, user.id);
  if (!handle) return envelope_error(handle.error());
  auto existing = list_passkeys(app, project.id, user.id);
  if (!existing) return envelope_error(existing.error());
  auto issued = issue_ceremony(app, project, CeremonyKind::registration, user.id, session_id);
  if (!issued) return envelope_error(issued.error());

  json::array exclude;
  for (const auto& p : *existing) exclude.push_back(descriptor(p));
  json::object options{
      {"challenge", core::base64url_encode(issued->ceremony.challenge)},
      {"rp", json::object{{"id", settings->rp_id},
                          {"name", settings->rp_name.empty() ? project.settings.name : settings->rp_name}}},
      {"user", json::object{{"id", core::base64url_encode(*handle)},
                            {"name", user.email},
                            {"displayName", user.name.empty() ? user.email : user.name}}},
      {"pubKeyCredParams", json::array{json::object{{"type", "public-key"}, {"alg", -7}},
                                       json::object{{"type", "public-key"}, {"alg", -257}}}},
      {"timeout", kTimeoutMs},
      {"excludeCredentials", std::move(exclude)},
      {"authenticatorSelection",
       json::object{
           {"residentKey", "required"}, {"requireResidentKey", true}, {"userVerification", "preferred"}}},
      {"attestation", "none"}};
  return envelope_ok(ceremony_json(std::move(options), *issued));
}

Response register_verify(App& app, Request& req, const ProjectContext& ctx) {
  const Project& project = ctx.project;
  const auto* settings = passkeys_on(project);
  if (!settings) return method_off();
  auto parsed = json_body(req);
  if (auto* r = std::get_if<Response>(&parsed)) return std::move(*r);
  const json::object& body = std::get<json::object>(parsed);
  auto ceremony_id = core::require_string(body, "ceremonyId");
  if (!ceremony_id) return envelope_error(ceremony_id.error());
  auto cred = parse_credential(body, CeremonyKind::registration);
  if (auto* r = std::get_if<Response>(&cred)) return std::move(*r);
  const CredentialJson& credential = std::get<CredentialJson>(cred);
  auto name = core::optional_string(body, "name");
  if (!name) return envelope_error(name.error());
  if (name->value_or("").size() > kMaxPasskeyNameLength)
    return envelope_error(400,
                          "'name' must be at most " + std::to_string(kMaxPasskeyNameLength) + " characters");

  auto ceremony = take_ceremony(app, project, *ceremony_id, CeremonyKind::registration);
  if (!ceremony) return envelope_error(ceremony.error());
  if (!*ceremony) return ceremony_refused();
  auto user = find_user(app, project.id, (*ceremony)->user_id);
  if (!user) return envelope_error(user.error());
  if (*user && (*user)->disabled) return envelope_error(403, "this account is disabled");
  auto live = session_live(app, project.id, (*ceremony)->session_id);
  if (!live) return envelope_error(live.error());
  if (!*user || !*live) return envelope_unauthorized("the session that began this registration has ended");

  webauthn::RegistrationInput input;
  input.client_data_json = credential.client_data_json;
  input.attestation_object = credential.attestation_object;
  input.expected_challenge = (*ceremony)->challenge;
  input.allowed_origins = settings->origins;
  input.rp_id = settings->rp_id;
  input.require_user_verification = false;  // "preferred": see docs/auth-passkeys.md
  auto registered = webauthn::verify_registration(input);
  if (!registered) return envelope_error(400, registered.error().message);
  if (registered->credential_id != credential.raw_id)
    return envelope_error(400, "'credential.id' is not the ID of the credential in the attestation");

  auto handle = passkey_user_handle(app, project.id, (*user)->id);
  if (!handle) return envelope_error(handle.error());
  Passkey p;
  p.user_id = (*user)->id;
  p.name = name->value_or("").empty() ? "Passkey" : **name;
  p.credential_id = registered->credential_id;
  p.public_key_cose = registered->public_key_cose;
  p.alg = static_cast<std::int64_t>(registered->alg);
  p.sign_count = registered->sign_count;
  p.aaguid = uuid_text(registered->aaguid);
  p.transports = credential.transports;
  p.user_handle = std::move(*handle);
  p.backup_eligible = registered->backup_eligible();
  p.backed_up = registered->backed_up();
  auto stored = add_passkey(app, project.id, std::move(p));
  if (!stored) return envelope_error(stored.error());
  return envelope_ok(to_api(*stored), 201);
}

Response list_route(App& app, Request& req, const ProjectContext& ctx) {
  if (!passkeys_on(ctx.project)) return method_off();
  auto parsed = json_body(req);
  if (auto* r = std::get_if<Response>(&parsed)) return std::move(*r);
  auto who = signed_in_user(app, std::get<json::object>(parsed), ctx.project);
  if (auto* r = std::get_if<Response>(&who)) return std::move(*r);
  auto all = list_passkeys(app, ctx.project.id, std::get<std::pair<EndUser, std::string>>(who).first.id);
  if (!all) return envelope_error(all.error());
  json::array out;
  for (const auto& p : *all) out.push_back(to_api(p));
  return envelope_ok(std::move(out));
}

Response delete_route(App& app, Request& req, const ProjectContext& ctx) {
  if (!passkeys_on(ctx.project)) return method_off();
  auto parsed = json_body(req);
  if (auto* r = std::get_if<Response>(&parsed)) return std::move(*r);
  const json::object& body = std::get<json::object>(parsed);
  auto passkey_id = core::require_string(body, "passkeyId");
  if (!passkey_id) return envelope_error(passkey_id.error());
  auto who = signed_in_user(app, body, ctx.project);
  if (auto* r = std::get_if<Response>(&who)) return std::move(*r);
  auto st = delete_passkey(app, ctx.project.id, std::get<std::pair<EndUser, std::string>>(who).first.id,
                           *passkey_id);
  if (!st.ok()) return envelope_error(st.error());
  return envelope_ok(json::object{{"id", *passkey_id}, {"deleted", true}});
}

Response login_options(App& app, Request& req, const ProjectContext& ctx) {
  const auto* settings = passkeys_on(ctx.project);
  if (!settings) return method_off();
  auto parsed = body_of(req);
  if (auto* r = std::get_if<Response>(&parsed)) return std::move(*r);
  auto issued = issue_ceremony(app, ctx.project, CeremonyKind::authentication);
  if (!issued) return envelope_error(issued.error());
  // Discoverable credentials: no allowCredentials, the authenticator offers the passkeys it holds for the
  // RP ID and the response names the credential.
  json::object options{{"challenge", core::base64url_encode(issued->ceremony.challenge)},
                       {"rpId", settings->rp_id},
                       {"timeout", kTimeoutMs},
                       {"userVerification", "preferred"},
                       {"allowCredentials", json::array{}}};
  return envelope_ok(ceremony_json(std::move(options), *issued));
}

Response login_verify(App& app, Request& req, const ProjectContext& ctx) {
  const Project& project = ctx.project;
  const auto* settings = passkeys_on(project);
  if (!settings) return method_off();
  auto parsed = json_body(req);
  if (auto* r = std::get_if<Response>(&parsed)) return std::move(*r);
  const json::object& body = std::get<json::object>(parsed);
  auto ceremony_id = core::require_string(body, "ceremonyId");
  if (!ceremony_id) return envelope_error(ceremony_id.error());
  auto cred = parse_credential(body, CeremonyKind::authentication);
  if (auto* r = std::get_if<Response>(&cred)) return std::move(*r);
  const CredentialJson& credential = std::get<CredentialJson>(cred);

  // The account is the credential: passkey failures neither lock nor are locked by password guesses at
  // the same email.
  Attempt attempt =
      failure_attempt(app, req, project, "passkey/" + core::hex_encode(core::sha256(credential.raw_id)));
  if (!attempt.allowed()) return envelope_rate_limited(attempt.retry_after_seconds());
  auto refuse = [&attempt](std::string_view message) {
    attempt.failed();
    return envelope_unauthorized(message);
  };

  auto ceremony = take_ceremony(app, project, *ceremony_id, CeremonyKind::authentication);
  if (!ceremony) return envelope_error(ceremony.error());
  if (!*ceremony) return refuse("the passkey ceremony is unknown, expired or already used");
  auto found = find_passkey_by_credential(app, project.id, credential.raw_id);
  if (!found) return envelope_error(found.error());
  if (!*found) return refuse("this passkey is not registered");
  const Passkey& passkey = **found;
  if (!credential.user_handle.empty() && credential.user_handle != passkey.user_handle)
    return refuse("the user handle does not belong to this passkey");

  webauthn::AssertionInput input;
  input.client_data_json = credential.client_data_json;
  input.authenticator_data = credential.authenticator_data;
  input.signature = credential.signature;
  input.public_key_cose = passkey.public_key_cose;
  input.stored_sign_count = passkey.sign_count;
  input.expected_challenge = (*ceremony)->challenge;
  input.allowed_origins = settings->origins;
  input.rp_id = settings->rp_id;
  input.require_user_verification = false;
  auto verified = webauthn::verify_assertion(input);
  if (!verified) return refuse(verified.error().message);

  auto user = find_user(app, project.id, passkey.user_id);
  if (!user) return envelope_error(user.error());
  if (!*user) return refuse("this passkey is not registered");
  if ((*user)->disabled) {
    attempt.not_counted();
    return envelope_error(403, "this account is disabled");
  }
  if (project.settings.require_email_verification && !(*user)->email_verified) {
    attempt.not_counted();
    return envelope_error(403, "confirm your email address before signing in");
  }
  auto used = record_passkey_use(app, project.id, passkey, *verified);
  if (!used) return envelope_error(used.error());
  if (!*used)
    return refuse(
        "the authenticator's signature counter did not increase, so the credential may have been cloned");
  attempt.succeeded();
  auto pair = start_session(app, project, **user, session_facts(app, req, "passkey"));
  if (!pair) return envelope_error(pair.error());
  return envelope_ok(signed_in_json(**user, *pair));
}

}  // namespace

void register_passkey_routes(App& app) {
  auto bind = [&app](Response (*fn)(App&, Request&, const ProjectContext&)) {
    return [&app, fn](Request& req, const ProjectContext& ctx) { return fn(app, req, ctx); };
  };
  add_project_route(app, "POST", "/passkeys/register/options", Access::project_key, bind(register_options));
  add_project_route(app, "POST", "/passkeys/register/verify", Access::project_key, bind(register_verify));
  add_project_route(app, "POST", "/passkeys/list", Access::project_key, bind(list_route));
  add_project_route(app, "POST", "/passkeys/delete", Access::project_key, bind(delete_route));
  add_project_route(app, "POST", "/passkeys/login/options", Access::project_key, bind(login_options));
  add_project_route(app, "POST", "/passkeys/login/verify", Access::project_key, bind(login_verify));
}

}  // namespace edge::auth_projects
