// The template benchmark's workload (shared/bench/templates, copied to fixtures/templates/ and embedded at
// build time): the receipt rendered with data.json must equal expected.html byte for byte.
#include <doctest/doctest.h>

#include <string>

#include "core/json.h"
#include "core/mail/render.h"
#include "core/mail/template_variables.h"
#include "template_fixtures.h"

using namespace core::mail;

TEST_CASE("receipt: the benchmark workload renders exactly expected.html") {
  auto t = Template::compile(fixtures::receipt_single_html);
  REQUIRE_MESSAGE(t.ok(), t.error().message);
  auto data = core::parse_json_object(fixtures::data_json);
  REQUIRE(data.ok());
  CHECK(missing_variables(*t, *data).empty());
  auto out = render(*t, *data, Escaping::html);
  REQUIRE_MESSAGE(out.ok(), out.error().message);
  CHECK(out->size() == 4361);
  CHECK(*out == fixtures::expected_html);
  CHECK(template_variables(*t) ==
        std::vector<std::string>{"order_id", "shop_name", "name", "order_date", "ship_to", "items",
                                 "subtotal", "shipping", "vat_rate", "vat", "total", "payment_method",
                                 "delivery_eta", "coupon", "next_coupon", "shop_address", "support_email"});
}
