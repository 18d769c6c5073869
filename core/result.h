#pragma once
// Result<T>: the value of an operation that can fail in an expected way, or the Error that says why.
// The core never throws; every fallible function returns a Result and the caller decides how the error
// reaches the user (platform envelope, OAuth error, restaurant error code).

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace core {

// A failure a user can be told about. `code` is stable and machine-readable (for example `invalid_amount`),
// `message` is a human sentence. Which of the two a product shows, and with which HTTP status, is the
// product's decision.
struct Error {
  std::string code;
  std::string message;
};

inline Error make_error(std::string code, std::string message) {
  return Error{std::move(code), std::move(message)};
}

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}
  Result(Error error) : v_(std::in_place_index<1>, std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  // Preconditions: ok() for value(), !ok() for error().
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  const Error& error() const { return std::get<1>(v_); }

  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  T value_or(T fallback) const { return ok() ? value() : std::move(fallback); }

 private:
  std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)) {}

  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return *error_; }

 private:
  std::optional<Error> error_;
};

using Status = Result<void>;

}  // namespace core

// Returns the error of `expr` from the enclosing function when it failed.
#define CORE_TRY(expr)                                           \
  do {                                                           \
    auto&& core_try_result_ = (expr);                            \
    if (!core_try_result_.ok()) return core_try_result_.error(); \
  } while (0)
