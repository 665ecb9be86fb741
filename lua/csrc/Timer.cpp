// The clock behind torch.Timer (lua/torch/Timer.lua): wall-clock time and the process's
// user and system CPU times, in seconds.
#include <sys/resource.h>
#include <sys/time.h>

#include "lua/csrc/common.h"
#include "lua/csrc/open.h"

namespace {

double seconds(const timeval &t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; }

// clock() -> real, user, sys
int clock(lua_State *L) {
  timeval now;
  gettimeofday(&now, nullptr);
  rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  lua_pushnumber(L, seconds(now));
  lua_pushnumber(L, seconds(usage.ru_utime));
  lua_pushnumber(L, seconds(usage.ru_stime));
  return 3;
}

}  // namespace

namespace luat {
void openTimer(lua_State *L) {
  lua_pushcfunction(L, clock);
  lua_setfield(L, -2, "clock");
}
}  // namespace luat
