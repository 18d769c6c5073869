// Daily income (docs/restaurant-api.md, "Daily income"): POST /income upserts the row of one branch x
// business date x channel; GET /income lists rows.

#include <algorithm>
#include <tuple>

#include "core/date.h"
#include "core/id.h"
#include "core/restaurant/income.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/restaurant/idempotency.h"
#include "edge/restaurant/restaurant_common.h"
#include "edge/restaurant/restaurant_http.h"
#include "edge/restaurant/restaurant_store.h"

namespace edge::restaurant {

void register_income(App& app) {
  Router& r = app.router;
  r.add("POST", path("/income"), restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
          auto write = read_branch_write(app, req, ctx);
          if (!write) return rest_error(write.error());
          const json::object& body = write->body;
          const std::string& branch_id = write->branchId;
          IdempotentCreate idem;
          if (auto answered = idem.begin(app, req, ctx, "POST /income", branch_id))
            return std::move(*answered);
          auto today = current_business_date(app, write->branch);
          if (!today) return rest_error(today.error());

          core::restaurant::IncomeInput in;
          auto day = core::optional_string(body, "businessDate");
          if (!day) return rest_error(day.error());
          if (*day) {
            auto parsed = core::parse_day_key(**day);
            if (!parsed) return rest_error(parsed.error());
            in.businessDate = *parsed;
          } else {
            in.businessDate = *today;
          }
          auto channel = core::require_string(body, "channel");
          if (!channel) return rest_error(channel.error());
          in.channel = *channel;
          auto amount = [&](std::string_view key, bool required) {
            return amount_field(body, key, required);
          };
          auto gross = amount("grossMinor", true);
          if (!gross) return rest_error(gross.error());
          in.grossMinor = **gross;
          auto commission = amount("commissionMinor", false);
          if (!commission) return rest_error(commission.error());
          in.commissionMinor = commission->value_or(0);
          auto z = amount("zReportMinor", false);
          if (!z) return rest_error(z.error());
          in.zReportMinor = *z;

          auto row = core::restaurant::validate_income(in, *today);
          if (!row) return rest_error(row.error());

          std::string day_key = core::format_day_key(row->businessDate);
          std::string key = company_key(ctx, "income", branch_id + "/" + day_key + "/" + row->channel);
          std::string new_id = core::make_id("inc_", app.random);
          std::string now = now_text(app);
          json::object rec{{"id", new_id},
                           {"branchId", branch_id},
                           {"businessDate", day_key},
                           {"channel", row->channel},
                           {"grossMinor", row->grossMinor},
                           {"commissionMinor", row->commissionMinor},
                           {"zReportMinor", opt_json(row->zReportMinor)},
                           {"netMinor", row->netMinor},
                           {"zReportDiffMinor", opt_json(row->zReportDiffMinor)},
                           {"createdAt", now},
                           {"updatedAt", now}};
          store::Table t = app.restaurant_table;
          auto answer = idem.write(app, [&](store::WriteTxn& txn) -> core::Result<Response> {
            json::object stored = rec;
            bool created = true;
            if (auto old = txn.get(t, key)) {
              if (auto o = core::parse_json_object(*old)) {
                stored["id"] = record::str(*o, "id");
                stored["createdAt"] = record::str(*o, "createdAt");
                created = false;
              }
            }
            txn.put(t, key, core::to_json(stored));
            return rest_ok(std::move(stored), created ? 201 : 200);
          });
          if (!answer) return rest_error(answer.error());
          return std::move(*answer);
        }));

  r.add("GET", path("/income"),
        restaurant_route(app, "restaurant.view", [&app](Request& req, const CompanyContext& ctx) {
          auto from = day_query(req, "from");
          if (!from) return rest_error(from.error());
          auto to = day_query(req, "to");
          if (!to) return rest_error(to.error());
          auto branch = req.query_param("branchId");
          std::string prefix = "c/" + ctx.company.id + "/income/";
          if (branch) {
            if (!is_key_segment(*branch) || !may_view_branch(ctx, *branch))
              return rest_error(404, "branch_not_found", "branch not found");
            auto b = load_branch(app, ctx, *branch);
            if (!b) return rest_error(b.error());
            prefix += *branch + "/";
          }
          auto all = list_records(app, prefix);
          if (!all) return rest_error(all.error());
          std::vector<json::object> out;
          for (auto& rec : *all) {
            if (!may_view_branch(ctx, record::str(rec, "branchId"))) continue;
            auto d = core::parse_day_key(record::str(rec, "businessDate"));
            if (!d) continue;
            if ((*from && *d < **from) || (*to && *d > **to)) continue;
            out.push_back(std::move(rec));
          }
          std::stable_sort(out.begin(), out.end(), [](const json::object& a, const json::object& b) {
            return std::tuple(record::str(a, "businessDate"), record::str(a, "branchId"),
                              record::str(a, "channel")) < std::tuple(record::str(b, "businessDate"),
                                                                      record::str(b, "branchId"),
                                                                      record::str(b, "channel"));
          });
          return paged(req, out);
        }));
}

}  // namespace edge::restaurant
