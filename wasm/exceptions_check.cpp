// Checks the wasm build's exception mode (docs/wasm.md): a C++ exception thrown inside Boost.JSON reaches
// a catch block instead of aborting the module. Run by ctest as `wasm_exceptions` under node.

#include <cstdio>
#include <stdexcept>

#include <boost/json.hpp>

int main() {
  boost::json::object empty;
  try {
    (void)empty.at("missing");  // throws std::out_of_range (Boost.JSON's system_error in later versions)
  } catch (const std::exception& e) {
    std::printf("caught from Boost.JSON: %s\n", e.what());
    return 0;
  }
  std::printf("value::at did not throw\n");
  return 1;
}
