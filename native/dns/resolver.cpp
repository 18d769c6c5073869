#include "native/dns/resolver.h"

#include <ldns/ldns.h>

#include <charconv>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

namespace native::dns {
namespace {

// Every ldns object this file makes is owned by one of these; ldns reports failure by status or null, never
// by throwing, so nothing else can leak.
struct LdnsFree {
  void operator()(ldns_resolver* r) const { ldns_resolver_deep_free(r); }
  void operator()(ldns_pkt* p) const { ldns_pkt_free(p); }
  void operator()(ldns_rdf* d) const { ldns_rdf_deep_free(d); }
  void operator()(char* s) const { std::free(s); }
};
template <class T>
using Owned = std::unique_ptr<T, LdnsFree>;

core::Error dns_error(std::string_view name, std::string_view reason) {
  return core::make_error("dns_error",
                          "DNS lookup of " + std::string(name) + " failed: " + std::string(reason));
}

struct Nameserver {
  std::string host;
  ldns_rdf_type type = LDNS_RDF_TYPE_A;
  std::uint16_t port = 53;
};

// `host[:port]` or `[v6][:port]`; the host must be an address (a nameserver name would need a resolver).
core::Result<Nameserver> parse_nameserver(std::string_view text) {
  auto invalid =
      core::make_error("invalid_nameserver", "nameserver must be an IP address with an optional port");
  Nameserver ns;
  std::string_view port;
  if (text.starts_with('[')) {
    auto close = text.find(']');
    if (close == std::string_view::npos) return invalid;
    ns.host = std::string(text.substr(1, close - 1));
    ns.type = LDNS_RDF_TYPE_AAAA;
    auto rest = text.substr(close + 1);
    if (!rest.empty() && !rest.starts_with(':')) return invalid;
    if (!rest.empty()) port = rest.substr(1);
  } else {
    auto colon = text.find(':');
    ns.host = std::string(text.substr(0, colon));
    if (colon != std::string_view::npos) port = text.substr(colon + 1);
  }
  if (!port.empty() || text.ends_with(':')) {
    unsigned value = 0;
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || end != port.data() + port.size() || value == 0 || value > 65535) return invalid;
    ns.port = static_cast<std::uint16_t>(value);
  }
  if (Owned<ldns_rdf>(ldns_rdf_new_frm_str(ns.type, ns.host.c_str())) == nullptr) return invalid;
  return ns;
}

const char* rcode_name(ldns_pkt_rcode rcode) {
  switch (rcode) {
    case LDNS_RCODE_FORMERR:
      return "FORMERR";
    case LDNS_RCODE_SERVFAIL:
      return "SERVFAIL";
    case LDNS_RCODE_NOTIMPL:
      return "NOTIMP";
    case LDNS_RCODE_REFUSED:
      return "REFUSED";
    default:
      return nullptr;
  }
}

// A domain name as text without the trailing dot (ldns escapes unusual bytes as \DDD).
core::Result<std::string> dname_text(const ldns_rdf* rdf) {
  if (rdf == nullptr || ldns_rdf_get_type(rdf) != LDNS_RDF_TYPE_DNAME) return core::make_error("", "");
  Owned<char> text(ldns_rdf2str(rdf));
  if (text == nullptr) return core::make_error("", "");
  std::string out(text.get());
  if (out.size() > 1 && out.ends_with('.')) out.pop_back();
  return out;
}

// TXT rdata: one or more <length><bytes> character-strings, joined (RFC 7208 §3.3).
core::Result<std::string> txt_text(const ldns_rr* rr) {
  std::string out;
  for (size_t i = 0; i < ldns_rr_rd_count(rr); ++i) {
    const ldns_rdf* rdf = ldns_rr_rdf(rr, i);
    if (ldns_rdf_get_type(rdf) != LDNS_RDF_TYPE_STR || ldns_rdf_size(rdf) < 1)
      return core::make_error("", "");
    const auto* data = ldns_rdf_data(rdf);
    if (size_t{data[0]} + 1 != ldns_rdf_size(rdf)) return core::make_error("", "");
    out.append(reinterpret_cast<const char*>(data + 1), data[0]);
  }
  return out;
}

class LdnsResolver final : public Resolver {
 public:
  LdnsResolver(std::optional<Nameserver> ns, ResolverConfig config) : ns_(std::move(ns)), config_(config) {}

  core::Result<std::vector<std::string>> txt(std::string_view name) override {
    return collect<std::string>(name, LDNS_RR_TYPE_TXT, [](const ldns_rr* rr, const ldns_rdf*) {
      return std::optional(txt_text(rr));
    });
  }

  core::Result<std::vector<std::string>> cname(std::string_view name) override {
    return collect<std::string>(
        name, LDNS_RR_TYPE_CNAME,
        [](const ldns_rr* rr, const ldns_rdf* owner) -> std::optional<core::Result<std::string>> {
          if (ldns_dname_compare(ldns_rr_owner(rr), owner) != 0)
            return std::nullopt;  // a later link of a chain
          if (ldns_rr_rd_count(rr) != 1) return core::Result<std::string>(core::make_error("", ""));
          return dname_text(ldns_rr_rdf(rr, 0));
        });
  }

  core::Result<std::vector<MxRecord>> mx(std::string_view name) override {
    return collect<MxRecord>(name, LDNS_RR_TYPE_MX, [](const ldns_rr* rr, const ldns_rdf*) {
      using R = core::Result<MxRecord>;
      if (ldns_rr_rd_count(rr) != 2 || ldns_rdf_get_type(ldns_rr_rdf(rr, 0)) != LDNS_RDF_TYPE_INT16)
        return std::optional<R>(core::make_error("", ""));
      auto host = dname_text(ldns_rr_rdf(rr, 1));
      if (!host.ok()) return std::optional<R>(host.error());
      return std::optional<R>(MxRecord{ldns_rdf2native_int16(ldns_rr_rdf(rr, 0)), std::move(*host)});
    });
  }

 private:
  core::Result<Owned<ldns_resolver>> make(std::string_view name) const {
    ldns_resolver* raw = nullptr;
    if (!ns_) {
      ldns_status status = ldns_resolver_new_frm_file(&raw, nullptr);
      Owned<ldns_resolver> from_file(raw);
      if (status != LDNS_STATUS_OK)
        return dns_error(name, std::string("/etc/resolv.conf: ") + ldns_get_errorstr_by_id(status));
      raw = from_file.release();
    } else {
      raw = ldns_resolver_new();
    }
    Owned<ldns_resolver> res(raw);
    if (res == nullptr) return dns_error(name, "out of memory");
    if (ns_) {
      Owned<ldns_rdf> address(ldns_rdf_new_frm_str(ns_->type, ns_->host.c_str()));
      if (address == nullptr || ldns_resolver_push_nameserver(res.get(), address.get()) != LDNS_STATUS_OK)
        return dns_error(name, "cannot use the nameserver");
      ldns_resolver_set_port(res.get(), ns_->port);
    }
    auto ms = config_.timeout.count();
    ldns_resolver_set_timeout(
        res.get(), timeval{static_cast<time_t>(ms / 1000), static_cast<suseconds_t>(ms % 1000 * 1000)});
    ldns_resolver_set_retry(res.get(), static_cast<uint8_t>(config_.attempts));
    ldns_resolver_set_retrans(res.get(), 0);  // no pause between attempts: the timeout already waited
    ldns_resolver_set_recursive(res.get(), true);
    ldns_resolver_set_dnssec(res.get(), false);
    return res;
  }

  // Sends one query and turns each answer record of `type` into an item with `read`, which returns nullopt
  // to skip a record and an error for one it cannot parse.
  template <class T, class Read>
  core::Result<std::vector<T>> collect(std::string_view name, ldns_rr_type type, Read read) const {
    std::string absolute(name);
    if (!absolute.ends_with('.')) absolute += '.';
    Owned<ldns_rdf> owner(ldns_dname_new_frm_str(absolute.c_str()));
    if (name.empty() || owner == nullptr) return dns_error(name, "malformed name");
    auto res = make(name);
    if (!res.ok()) return res.error();

    ldns_pkt* raw = nullptr;
    ldns_status status = ldns_resolver_send(&raw, res->get(), owner.get(), type, LDNS_RR_CLASS_IN, LDNS_RD);
    Owned<ldns_pkt> pkt(raw);
    if (status == LDNS_STATUS_NETWORK_ERR) return dns_error(name, "timeout or network error");
    if (status != LDNS_STATUS_OK) return dns_error(name, ldns_get_errorstr_by_id(status));
    if (pkt == nullptr) return dns_error(name, "no answer");

    std::vector<T> items;
    ldns_pkt_rcode rcode = ldns_pkt_get_rcode(pkt.get());
    if (rcode == LDNS_RCODE_NXDOMAIN) return items;
    if (rcode != LDNS_RCODE_NOERROR) {
      const char* known = rcode_name(rcode);
      return dns_error(name, known ? std::string(known) : "rcode " + std::to_string(static_cast<int>(rcode)));
    }
    const ldns_rr_list* answer = ldns_pkt_answer(pkt.get());
    for (size_t i = 0; answer != nullptr && i < ldns_rr_list_rr_count(answer); ++i) {
      const ldns_rr* rr = ldns_rr_list_rr(answer, i);
      if (ldns_rr_get_type(rr) != type || ldns_rr_get_class(rr) != LDNS_RR_CLASS_IN) continue;
      auto item = read(rr, owner.get());
      if (!item) continue;
      if (!item->ok()) return dns_error(name, "malformed answer");
      items.push_back(std::move(item->value()));
    }
    return items;
  }

  std::optional<Nameserver> ns_;
  ResolverConfig config_;
};

}  // namespace

core::Result<std::unique_ptr<Resolver>> make_ldns_resolver(ResolverConfig config) {
  if (config.attempts < 1 || config.attempts > 10 || config.timeout.count() <= 0)
    return core::make_error("invalid_nameserver", "attempts must be 1..10 and the timeout positive");
  std::optional<Nameserver> ns;
  if (!config.nameserver.empty()) {
    auto parsed = parse_nameserver(config.nameserver);
    if (!parsed.ok()) return parsed.error();
    ns = std::move(*parsed);
  }
  return std::unique_ptr<Resolver>(std::make_unique<LdnsResolver>(std::move(ns), config));
}

}  // namespace native::dns
