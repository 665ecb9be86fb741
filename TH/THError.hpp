// C++ side of TH's error handling: the exception a failed check throws when no handler
// of the thread took the error over. Bindings catch it (pybind11 turns it into
// RuntimeError, the Lua binding into lua_error).
#ifndef TH_ERROR_HPP
#define TH_ERROR_HPP

#include <stdexcept>
#include <string>

namespace th {

// kind says what a binding should raise: a bad index is IndexError in Python, a wrong
// type TypeError, a bad value ValueError, everything else RuntimeError.
enum class ErrorKind { Runtime, Index, Type, Value };

// Visible outside a shared TH, so that a binding in another shared object can catch it.
class __attribute__((visibility("default"))) Error : public std::runtime_error {
 public:
  Error(const std::string &msg, ErrorKind kind, int argNumber)
      : std::runtime_error(msg), kind_(kind), argNumber_(argNumber) {}
  ErrorKind kind() const { return kind_; }
  int argNumber() const { return argNumber_; }  // 0 when not about one argument

 private:
  ErrorKind kind_;
  int argNumber_;
};

}  // namespace th

// Raising with a kind (C++ callers inside TH only; exported for TH's op-group libraries).
[[noreturn]] void THErrorKind(th::ErrorKind kind, const char *file, int line, const char *fmt, ...)
    __attribute__((visibility("default"), format(printf, 4, 5)));
#define THIndexError(...) THErrorKind(th::ErrorKind::Index, __FILE__, __LINE__, __VA_ARGS__)
#define THTypeError(...) THErrorKind(th::ErrorKind::Type, __FILE__, __LINE__, __VA_ARGS__)
#define THValueError(...) THErrorKind(th::ErrorKind::Value, __FILE__, __LINE__, __VA_ARGS__)

#endif
