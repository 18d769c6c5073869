#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <spdlog/spdlog.h>

int main(int argc, char** argv) {
  spdlog::set_level(spdlog::level::warn);  // request lines would drown the test report
  doctest::Context context(argc, argv);
  return context.run();
}
