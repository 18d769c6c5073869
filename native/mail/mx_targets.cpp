#include "native/mail/mx_targets.h"

#include <algorithm>
#include <string>

#include "core/ascii.h"
#include "core/validate.h"

namespace native::mail {

core::Result<std::vector<SmtpTarget>> mx_targets(native::dns::Resolver& resolver, std::string_view domain,
                                                 int port) {
  CORE_TRY(core::validate_domain_name(domain));
  auto found = resolver.mx(domain);
  if (!found.ok()) return found.error();
  std::vector<native::dns::MxRecord> records = std::move(*found);
  if (records.empty()) return std::vector<SmtpTarget>{{core::to_ascii_lower(domain), port}};

  // The resolver writes the root name as "."; some servers also send an empty exchange.
  auto is_null = [](const native::dns::MxRecord& r) { return r.host == "." || r.host.empty(); };
  if (std::all_of(records.begin(), records.end(), is_null))
    return core::make_error("null_mx", std::string(domain) + " accepts no mail (null MX, RFC 7505)");
  std::erase_if(records, is_null);

  std::stable_sort(records.begin(), records.end(),
                   [](const auto& a, const auto& b) { return a.preference < b.preference; });
  std::vector<SmtpTarget> targets;
  for (const auto& record : records) {
    SmtpTarget target{core::to_ascii_lower(record.host), port};
    if (std::find(targets.begin(), targets.end(), target) == targets.end())
      targets.push_back(std::move(target));
  }
  return targets;
}

}  // namespace native::mail
