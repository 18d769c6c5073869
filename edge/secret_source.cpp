#include "edge/secret_source.h"

#include <cstdlib>
#include <fstream>
#include <iterator>

namespace edge {

core::Result<std::string> read_secret(const char* env_name, const std::string& file) {
  const char* value = std::getenv(env_name);
  const bool from_env = value && *value;
  if (file.empty()) return std::string(from_env ? value : "");
  if (from_env)
    return core::make_error("invalid_secret",
                            std::string(env_name) + " and a file for it are both set; use one");
  std::ifstream in(file, std::ios::binary);
  std::string secret;
  if (in) secret.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (!in || in.bad())
    return core::make_error("storage_error", std::string("cannot read ") + env_name + " from '" + file + "'");
  while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r')) secret.pop_back();
  // An empty file is a deployment mistake, not a request for the default.
  if (secret.empty())
    return core::make_error("invalid_secret", std::string(env_name) + ": '" + file + "' is empty");
  return secret;
}

}  // namespace edge
