// edge-admin: manages companies, users, memberships and access tokens directly in a data directory.
// Safe while the server runs (LMDB serialises writers across processes).

#include <CLI/CLI.hpp>

#include <iostream>

#include "edge/app.h"
#include "edge/mail/domains.h"
#include "edge/storage/storage_store.h"
#include "native/imap/dovecot_config.h"
#include "native/os/system_clock.h"
#include "native/os/system_random.h"

namespace {
namespace json = core::json;

struct Output {
  bool as_json = false;

  // Prints `data` as JSON, or `text` for people.
  int ok(const json::value& data, const std::string& text) const {
    if (as_json)
      std::cout << json::serialize(data) << "\n";
    else
      std::cout << text;
    return 0;
  }
  int fail(const core::Error& e) const {
    if (as_json)
      std::cout << json::serialize(json::object{{"error", e.message}, {"code", e.code}}) << "\n";
    else
      std::cerr << "edge-admin: " << e.message << "\n";
    return 1;
  }
};

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s.empty() ? "-" : s;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{
      "edge-admin: manage companies, users, memberships and access tokens in an edge data directory"};
  cli.require_subcommand(1);
  edge::Config config;
  Output out;
  cli.add_option("--data-dir", config.data_dir, "LMDB data directory")
      ->envname("EDGE_DATA_DIR")
      ->capture_default_str();
  cli.add_flag("--json", out.as_json, "print machine-readable JSON");

  std::string slug, name, email, password, role = "member", company, id;
  std::vector<std::string> permissions;
  bool password_stdin = false;

  auto* company_cmd = cli.add_subcommand("company", "companies")->require_subcommand(1);
  auto* company_create = company_cmd->add_subcommand("create", "create a company");
  company_create->add_option("--slug", slug, "URL slug (a-z, 0-9, -)")->required();
  company_create->add_option("--name", name, "display name")->required();
  auto* company_list = company_cmd->add_subcommand("list", "list companies");

  auto* user_cmd = cli.add_subcommand("user", "platform users")->require_subcommand(1);
  auto* user_create = user_cmd->add_subcommand("create", "create a platform user");
  user_create->add_option("--email", email, "email address")->required();
  user_create->add_option("--name", name, "display name")->required();
  auto* pw = user_create->add_option("--password", password, "password (prefer --password-stdin)");
  user_create->add_flag("--password-stdin", password_stdin, "read the password from standard input")
      ->excludes(pw);
  auto* user_list = user_cmd->add_subcommand("list", "list platform users");

  auto* member_cmd = cli.add_subcommand("member", "company memberships")->require_subcommand(1);
  auto* member_add = member_cmd->add_subcommand("add", "add a user to a company");
  member_add->add_option("--company", company, "company slug")->required();
  member_add->add_option("--email", email, "the user's email")->required();
  member_add->add_option("--role", role, "owner, admin or member")->capture_default_str();
  member_add->add_option("--permission", permissions, "a permission (repeatable), for members");
  auto* member_list = member_cmd->add_subcommand("list", "list a company's members");
  member_list->add_option("--company", company, "company slug")->required();

  auto* token_cmd = cli.add_subcommand("token", "company access tokens")->require_subcommand(1);
  auto* token_create = token_cmd->add_subcommand("create", "create an access token (plaintext shown once)");
  token_create->add_option("--company", company, "company slug")->required();
  token_create->add_option("--name", name, "what the token is for")->required();
  token_create->add_option("--permission", permissions, "a permission (repeatable)")->required();
  auto* token_list = token_cmd->add_subcommand("list", "list a company's access tokens");
  token_list->add_option("--company", company, "company slug")->required();
  auto* token_revoke = token_cmd->add_subcommand("revoke", "revoke an access token");
  token_revoke->add_option("--company", company, "company slug")->required();
  token_revoke->add_option("--id", id, "token id (tok_...)")->required();

  std::uint64_t quota_bytes = 0;
  auto* storage_cmd = cli.add_subcommand("storage", "the storage product")->require_subcommand(1);
  auto* storage_quota =
      storage_cmd->add_subcommand("quota", "set a company's storage quota (docs/storage-api.md)");
  storage_quota->add_option("--company", company, "company slug")->required();
  storage_quota->add_option("--bytes", quota_bytes, "the quota in bytes")->required();

  std::vector<std::string> redirect_uris, logout_uris, scopes;
  std::string homepage;
  bool is_public = false;
  auto* client_cmd = cli.add_subcommand("oauth-client", "OAuth clients of a company")->require_subcommand(1);
  auto* client_create = client_cmd->add_subcommand("create", "register an OAuth client (secret shown once)");
  client_create->add_option("--company", company, "company slug")->required();
  client_create->add_option("--name", name, "shown on the consent screen")->required();
  client_create->add_option("--redirect-uri", redirect_uris, "a redirect URI (repeatable)")->required();
  client_create->add_option("--post-logout-redirect-uri", logout_uris, "an end-session target (repeatable)");
  client_create->add_option("--scope", scopes, "an allowed scope (repeatable; default openid profile email)");
  client_create->add_option("--homepage", homepage, "homepage URL shown on the consent screen");
  client_create->add_flag("--public", is_public, "a public client (no secret, PKCE required)");
  auto* client_list = client_cmd->add_subcommand("list", "list a company's OAuth clients");
  client_list->add_option("--company", company, "company slug")->required();
  auto* client_rotate = client_cmd->add_subcommand("rotate-secret", "issue a new client secret (shown once)");
  client_rotate->add_option("--company", company, "company slug")->required();
  client_rotate->add_option("--id", id, "client id (cli_...)")->required();

  auto* mail_cmd = cli.add_subcommand("mail", "the mail product")->require_subcommand(1);
  auto* dkim_zone = mail_cmd->add_subcommand("dkim-zone",
                                             "print the TXT records of the platform's DKIM zone (where every "
                                             "domain's s1/s2._domainkey CNAME points), "
                                             "in zone-file form, for the deployment's DNS");
  dkim_zone->add_option("--dkim-zone", config.mail.dkim_zone, "the zone, as the edge's --mail-dkim-zone")
      ->capture_default_str();

  native::imap::DovecotLayout dovecot;
  auto* dovecot_cmd =
      cli.add_subcommand("dovecot", "the IMAP server of the mailboxes")->require_subcommand(1);
  auto* dovecot_install = dovecot_cmd->add_subcommand(
      "install",
      "create Dovecot's folders and dovecot.conf (docs/mailboxes.md); then run `dovecot -c "
      "<dir>/dovecot.conf` "
      "and start edge with --mail-dovecot-dir <dir> --mail-imap <address>:<port>");
  dovecot_install->add_option("--dir", dovecot.base_dir, "Dovecot's folder, absolute, at most 64 bytes")
      ->required();
  dovecot_install->add_option("--listen", dovecot.listen_address, "IMAP address")->capture_default_str();
  dovecot_install->add_option("--port", dovecot.imap_port, "IMAP port")->capture_default_str();
  dovecot_install
      ->add_option("--mail-user", dovecot.mail_uid, "owner of the mail folders (not root), e.g. vmail")
      ->required();
  dovecot_install->add_option("--mail-group", dovecot.mail_gid, "group of the mail folders")->required();

  CLI11_PARSE(cli, argc, argv);

  if (dovecot_install->parsed()) {
    if (auto st = native::imap::validate_layout(dovecot); !st.ok()) return out.fail(st.error());
    if (auto st = native::imap::install_dovecot_layout(dovecot); !st.ok()) return out.fail(st.error());
    const auto paths = native::imap::dovecot_paths(dovecot);
    return out.ok(
        json::object{{"config", paths.config_file}, {"usersFile", paths.users_file}},
        "installed " + paths.config_file + "; start Dovecot with: dovecot -c " + paths.config_file + "\n");
  }

  native::SystemClock clock;
  native::SystemRandom random;
  auto app = edge::open_app(config, clock, random);
  if (!app) return out.fail(app.error());
  edge::Accounts& accounts = *(*app)->accounts;

  if (dkim_zone->parsed()) {
    auto records = edge::mail::dkim_zone_records(**app);
    if (!records) return out.fail(records.error());
    json::array a;
    std::string text;
    for (const auto& r : *records) {
      a.push_back(json::object{{"type", r.type}, {"name", r.name}, {"value", r.value}});
      // A TXT value longer than 255 bytes is several character-strings (RFC 1035 §3.3.14).
      text += r.name + ". 3600 IN TXT";
      for (std::size_t i = 0; i < r.value.size(); i += 255) text += " \"" + r.value.substr(i, 255) + "\"";
      text += "\n";
    }
    return out.ok(a, text);
  }

  auto need_company = [&]() -> core::Result<edge::Company> { return accounts.company_by_slug(company); };

  if (company_create->parsed()) {
    auto c = accounts.create_company(slug, name);
    if (!c) return out.fail(c.error());
    return out.ok(edge::to_json(*c), "created company " + c->slug + " (" + c->id + ")\n");
  }
  if (company_list->parsed()) {
    auto all = accounts.list_companies();
    if (!all) return out.fail(all.error());
    json::array a;
    std::string text;
    for (auto& c : *all) {
      a.push_back(edge::to_json(c));
      text += c.slug + "\t" + c.id + "\t" + c.name + "\n";
    }
    return out.ok(a, text);
  }
  if (user_create->parsed()) {
    if (password_stdin) std::getline(std::cin, password);
    auto u = accounts.create_user(email, name, password);
    if (!u) return out.fail(u.error());
    return out.ok(edge::to_json(*u), "created user " + u->email + " (" + u->id + ")\n");
  }
  if (user_list->parsed()) {
    auto all = accounts.list_users();
    if (!all) return out.fail(all.error());
    json::array a;
    std::string text;
    for (auto& u : *all) {
      a.push_back(edge::to_json(u));
      text += u.email + "\t" + u.id + "\t" + u.name + "\n";
    }
    return out.ok(a, text);
  }
  if (member_add->parsed()) {
    auto c = need_company();
    if (!c) return out.fail(c.error());
    auto r = core::parse_role(role);
    if (!r) return out.fail(core::make_error("invalid_role", "--role must be owner, admin or member"));
    auto m = accounts.add_member(*c, email, *r, permissions, nullptr);
    if (!m) return out.fail(m.error());
    auto u = accounts.user_by_id(m->user_id);
    if (!u) return out.fail(u.error());
    return out.ok(edge::to_json(*m, *u), "added " + u->email + " to " + c->slug + " as " + role + "\n");
  }
  if (member_list->parsed()) {
    auto c = need_company();
    if (!c) return out.fail(c.error());
    auto all = accounts.list_members(*c);
    if (!all) return out.fail(all.error());
    json::array a;
    std::string text;
    for (auto& [m, u] : *all) {
      a.push_back(edge::to_json(m, u));
      text += u.email + "\t" + std::string(core::role_name(m.role)) + "\t" + join(m.permissions) + "\n";
    }
    return out.ok(a, text);
  }
  if (storage_quota->parsed()) {
    if (auto st = edge::storage::set_quota(**app, company, quota_bytes); !st.ok())
      return out.fail(st.error());
    return out.ok(json::object{{"company", company}, {"limit", static_cast<std::int64_t>(quota_bytes)}},
                  "storage quota of " + company + ": " + std::to_string(quota_bytes) + " bytes\n");
  }
  if (token_create->parsed()) {
    auto c = need_company();
    if (!c) return out.fail(c.error());
    auto t = accounts.create_token(*c, name, permissions, nullptr);
    if (!t) return out.fail(t.error());
    json::object o = edge::to_json(t->token);
    o["token"] = t->plaintext;
    return out.ok(o, t->plaintext + "\n");
  }
  if (token_list->parsed()) {
    auto c = need_company();
    if (!c) return out.fail(c.error());
    auto all = accounts.list_tokens(*c);
    if (!all) return out.fail(all.error());
    json::array a;
    std::string text;
    for (auto& t : *all) {
      a.push_back(edge::to_json(t));
      text += t.id + "\t" + t.token_prefix + "...\t" + t.name + "\t" + join(t.permissions) +
              (t.revoked_at ? "\trevoked" : "") + "\n";
    }
    return out.ok(a, text);
  }
  if (token_revoke->parsed()) {
    auto c = need_company();
    if (!c) return out.fail(c.error());
    auto t = accounts.revoke_token(*c, id);
    if (!t) return out.fail(t.error());
    return out.ok(edge::to_json(*t), "revoked " + t->id + "\n");
  }
  if (client_create->parsed()) {
    auto c = need_company();
    if (!c) return out.fail(c.error());
    edge::oauth::ClientInput in;
    in.name = name;
    in.redirect_uris = redirect_uris;
    in.post_logout_redirect_uris = logout_uris;
    if (!scopes.empty()) in.scopes = scopes;
    if (!homepage.empty()) in.homepage_url = homepage;
    in.is_public = is_public;
    std::string secret;
    auto created = (*app)->oauth->create_client(c->id, in, &secret);
    if (!created) return out.fail(created.error());
    json::object o = edge::oauth::to_json(*created);
    if (!secret.empty()) o["clientSecret"] = secret;
    return out.ok(o, "client_id     " + created->client_id + "\n" +
                         (secret.empty() ? "" : "client_secret " + secret + "\n"));
  }
  if (client_list->parsed()) {
    auto c = need_company();
    if (!c) return out.fail(c.error());
    auto all = (*app)->oauth->clients_of(c->id);
    if (!all) return out.fail(all.error());
    json::array a;
    std::string text;
    for (auto& cl : *all) {
      a.push_back(edge::oauth::to_json(cl));
      text += cl.client_id + "\t" + cl.name + "\t" + join(cl.redirect_uris) + "\n";
    }
    return out.ok(a, text);
  }
  if (client_rotate->parsed()) {
    auto c = need_company();
    if (!c) return out.fail(c.error());
    std::string secret;
    auto rotated = (*app)->oauth->rotate_secret(c->id, id, &secret);
    if (!rotated) return out.fail(rotated.error());
    json::object o = edge::oauth::to_json(*rotated);
    o["clientSecret"] = secret;
    return out.ok(o, secret + "\n");
  }
  return 2;
}
