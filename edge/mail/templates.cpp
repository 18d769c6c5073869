#include "edge/mail/templates.h"

#include "core/id.h"
#include "edge/app.h"
#include "edge/mail/mail_store.h"
#include "edge/platform/record_json.h"

namespace edge::mail {
namespace {

using core::mail::LocalizedString;
using core::mail::MailTemplate;

core::Result<std::optional<LocalizedString>> localized_field(const json::object& body, std::string_view key) {
  auto* v = body.if_contains(key);
  if (!v || v->is_null()) return std::optional<LocalizedString>();
  auto s = LocalizedString::from_json(*v);
  if (!s) return core::make_error(s.error().code, "field '" + std::string(key) + "': " + s.error().message);
  return std::optional<LocalizedString>(std::move(*s));
}

core::Result<std::shared_ptr<const MailTemplate>> compile(const json::object& rec) {
  auto name = LocalizedString::from_json(rec.contains("name") ? rec.at("name") : json::value(""));
  auto subject = LocalizedString::from_json(rec.contains("subject") ? rec.at("subject") : json::value(""));
  auto body = LocalizedString::from_json(rec.contains("body") ? rec.at("body") : json::value(""));
  if (!name || !subject || !body) return core::make_error("storage_error", "unreadable template record");
  core::mail::TemplateErrorSite site;
  auto t = MailTemplate::compile(std::move(*name), std::move(*subject), std::move(*body), &site);
  if (!t) return core::make_error("invalid_template", t.error().message);
  return std::make_shared<const MailTemplate>(std::move(*t));
}

// The domain must be one of the company's and verified (document 2: "a verified sending domain").
core::Status check_domain(const store::ReadTxn& txn, App& app, std::string_view company_id,
                          std::string_view domain_id) {
  auto d = get_object(txn, app.mail_table, company_key(company_id, "domain", domain_id));
  if (!d) return core::make_error("unprocessable", "domainId names no domain of this company");
  if (record::str(*d, "status") != "verified")
    return core::make_error("unprocessable", "domain '" + record::str(*d, "name") + "' is not verified");
  return {};
}

// Applies `f` to `rec`, compiles the result and caches it. The record's variables and version follow.
core::Result<StoredTemplate> apply(json::object rec, const TemplateFields& f) {
  if (f.name) rec["name"] = f.name->to_json();
  if (f.subject) rec["subject"] = f.subject->to_json();
  if (f.body) rec["body"] = f.body->to_json();
  if (f.domain_id) rec["domainId"] = *f.domain_id;
  auto compiled = compile(rec);
  if (!compiled) return compiled.error();
  rec["variables"] = record::array_of((*compiled)->variables());
  return StoredTemplate{std::move(rec), std::move(*compiled)};
}

TemplateCache& cache(App& app) {
  return app.mail_templates;
}

}  // namespace

json::object template_to_api(const json::object& rec, PathForm form) {
  json::object out;
  for (const char* k : {"id", "name", "subject"})
    if (auto* v = rec.if_contains(k)) out[k] = *v;
  if (auto* v = rec.if_contains("body")) out[form == PathForm::product ? "mjmlBody" : "body"] = *v;
  for (const char* k : {"domainId", "variables", "version", "createdAt", "updatedAt"})
    if (auto* v = rec.if_contains(k)) out[k] = *v;
  return out;
}

core::Result<TemplateFields> parse_template_fields(const json::object& body) {
  TemplateFields f;
  auto name = localized_field(body, "name");
  if (!name) return name.error();
  f.name = std::move(*name);
  auto subject = localized_field(body, "subject");
  if (!subject) return subject.error();
  f.subject = std::move(*subject);
  // `body`, or `mjmlBody` in the mail-product form: the same field (spec/DECISIONS.md).
  auto b = localized_field(body, body.contains("body") ? "body" : "mjmlBody");
  if (!b) return b.error();
  f.body = std::move(*b);
  auto domain = core::optional_string(body, "domainId");
  if (!domain) return domain.error();
  f.domain_id = std::move(*domain);
  return f;
}

core::Result<StoredTemplate> create_template(App& app, std::string_view company_id, const TemplateFields& f) {
  for (auto [present, field] : {std::pair{f.name.has_value(), "name"},
                                {f.subject.has_value(), "subject"},
                                {f.body.has_value(), "body"},
                                {f.domain_id.has_value(), "domainId"}})
    if (!present) return core::make_error("invalid_field", "field '" + std::string(field) + "' is required");
  std::string now = now_text(app);
  json::object rec{
      {"id", core::make_id("tpl_", app.random)}, {"version", 1}, {"createdAt", now}, {"updatedAt", now}};
  auto made = apply(std::move(rec), f);
  if (!made) return made.error();
  const std::string id = record::str(made->record, "id");
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (auto ok = check_domain(txn, app, company_id, *f.domain_id); !ok.ok()) return ok;
    put_object(txn, app.mail_table, company_key(company_id, "template", id), made->record);
    return {};
  });
  if (!st.ok()) return st.error();
  cache(app).put(id, 1, made->compiled);
  return made;
}

core::Result<StoredTemplate> update_template(App& app, std::string_view company_id, std::string_view id,
                                             const TemplateFields& f) {
  if (!f.name && !f.subject && !f.body && !f.domain_id)
    return core::make_error("invalid_field",
                            "an update needs at least one of 'name', 'subject', 'body' and 'domainId'");
  std::optional<StoredTemplate> out;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    out.reset();
    const std::string key = company_key(company_id, "template", id);
    auto rec = get_object(txn, app.mail_table, key);
    if (!rec) return core::make_error("not_found", "template not found");
    if (f.domain_id)
      if (auto ok = check_domain(txn, app, company_id, *f.domain_id); !ok.ok()) return ok;
    (*rec)["version"] = record::num(*rec, "version") + 1;
    (*rec)["updatedAt"] = now_text(app);
    auto made = apply(std::move(*rec), f);
    if (!made) return made.error();
    put_object(txn, app.mail_table, key, made->record);
    out = std::move(*made);
    return {};
  });
  if (!st.ok()) return st.error();
  cache(app).put(std::string(id), record::num(out->record, "version"), out->compiled);
  return std::move(*out);
}

core::Result<json::array> list_templates(App& app, std::string_view company_id, PathForm form) {
  json::array out;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    out.clear();
    txn.scan(app.mail_table, company_prefix(company_id, "template"),
             [&](std::string_view, std::string_view v) {
               if (auto rec = core::parse_json_object(v)) out.emplace_back(template_to_api(*rec, form));
               return true;
             });
    return {};
  });
  if (!st.ok()) return st.error();
  return out;
}

core::Status delete_template(App& app, std::string_view company_id, std::string_view id) {
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.erase(app.mail_table, company_key(company_id, "template", id)))
      return core::make_error("not_found", "template not found");
    return {};
  });
  if (st.ok()) cache(app).erase(std::string(id));
  return st;
}

core::Result<StoredTemplate> load_template(App& app, std::string_view company_id, std::string_view id) {
  auto rec = read_object(app, company_key(company_id, "template", id));
  if (!rec) return rec.error();
  if (!*rec) return core::make_error("not_found", "template not found");
  const std::string tid(id);
  const std::int64_t version = record::num(**rec, "version");
  if (auto hit = cache(app).get(tid, version)) return StoredTemplate{std::move(**rec), std::move(hit)};
  auto compiled = compile(**rec);
  if (!compiled) return compiled.error();
  cache(app).put(tid, version, *compiled);
  return StoredTemplate{std::move(**rec), std::move(*compiled)};
}

std::shared_ptr<const MailTemplate> TemplateCache::get(const std::string& id, std::int64_t version) {
  std::lock_guard lock(mutex_);
  auto it = map_.find(id);
  if (it == map_.end() || it->second.first != version) return nullptr;
  return it->second.second;
}

void TemplateCache::put(const std::string& id, std::int64_t version, std::shared_ptr<const MailTemplate> t) {
  std::lock_guard lock(mutex_);
  auto& slot = map_[id];
  if (slot.second && slot.first > version) return;  // a newer version got there first
  slot = {version, std::move(t)};
}

void TemplateCache::erase(const std::string& id) {
  std::lock_guard lock(mutex_);
  map_.erase(id);
}

}  // namespace edge::mail
