// `th [-l lib] [-e statement] [script.lua [args]]`: LuaJIT with `torch` loaded, like
// torch7's launcher. The torch package's Lua files are compiled in (lua_sources.cpp), so
// the binary works from any directory; TORCH_LUA_PATH (a directory holding torch/*.lua)
// takes precedence, for editing the Lua files without rebuilding.
#include <lua.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

extern "C" int luaopen_torch_cimpl(lua_State *L);

namespace luat {
struct LuaSource {
  const char *module;  // "torch", "torch.Tensor"
  const char *chunkname;
  const char *code;
};
extern const LuaSource kLuaSources[];
}  // namespace luat

namespace {

int report(lua_State *L, int status) {
  if (status != 0) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "th: %s\n", msg ? msg : "(error object is not a string)");
    fflush(stderr);
    lua_pop(L, 1);
  }
  return status;
}

int traceback(lua_State *L) {
  if (!lua_isstring(L, 1)) return 1;
  lua_getglobal(L, "debug");
  lua_getfield(L, -1, "traceback");
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 2);
  lua_call(L, 2, 1);
  return 1;
}

int docall(lua_State *L, int nargs, int nresults) {
  int base = lua_gettop(L) - nargs;
  lua_pushcfunction(L, traceback);
  lua_insert(L, base);
  int status = lua_pcall(L, nargs, nresults, base);
  lua_remove(L, base);
  return status;
}

int dostring(lua_State *L, const char *s, const char *name) {
  int status = luaL_loadbuffer(L, s, strlen(s), name);
  if (status == 0) status = docall(L, 0, 0);
  return report(L, status);
}

int requireModule(lua_State *L, const char *name) {
  lua_getglobal(L, "require");
  lua_pushstring(L, name);
  int status = docall(L, 1, 1);
  if (status == 0 && !strchr(name, '.')) {
    // `-l nn` and friends also make the module a global, as torch7's th did
    lua_setglobal(L, name);
  } else if (status == 0) {
    lua_pop(L, 1);
  }
  return report(L, status);
}

// package.preload entries for the compiled-in Lua files, unless TORCH_LUA_PATH is set.
void installSources(lua_State *L) {
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "preload");
  lua_pushcfunction(L, luaopen_torch_cimpl);
  lua_setfield(L, -2, "torch.cimpl");
  const char *dir = getenv("TORCH_LUA_PATH");
  if (dir && *dir) {
    lua_pop(L, 1);
    lua_getfield(L, -1, "path");
    std::string path = std::string(dir) + "/?.lua;" + dir + "/?/init.lua;" + lua_tostring(L, -1);
    lua_pop(L, 1);
    lua_pushstring(L, path.c_str());
    lua_setfield(L, -2, "path");
    lua_pop(L, 1);
    return;
  }
  for (const luat::LuaSource *s = luat::kLuaSources; s->module; s++) {
    if (luaL_loadbuffer(L, s->code, strlen(s->code), s->chunkname) != 0) {
      report(L, 1);
      continue;
    }
    lua_setfield(L, -2, s->module);
  }
  lua_pop(L, 2);
}

void usage() {
  fprintf(stderr,
          "usage: th [-l lib] [-e statement] [script.lua [args]]\n"
          "  -l lib        require lib (and make it a global)\n"
          "  -e statement  run statement\n"
          "  -i            enter the interactive prompt after the script\n"
          "  with no script, reads Lua from an interactive prompt\n");
}

// A small REPL after torch7's trepl: an expression's values are shown by trepl.show (tables
// with their entries, tensors as tostring), `=expr` is `return expr`, and a statement that
// is not complete yet reads more lines.
void repl(lua_State *L) {
  lua_getglobal(L, "require");
  lua_pushstring(L, "trepl");
  if (report(L, docall(L, 1, 1)) != 0) return;
  lua_getfield(L, -1, "show");
  lua_remove(L, -2);
  const int show = lua_gettop(L);
  char line[4096];
  std::string chunk;
  for (;;) {
    fputs(chunk.empty() ? "th> " : "..> ", stdout);
    fflush(stdout);
    if (!fgets(line, sizeof line, stdin)) break;
    chunk += line;
    if (chunk[0] == '=') chunk = "return " + chunk.substr(1);
    int status;
    std::string ret = "return " + chunk;
    if (luaL_loadbuffer(L, ret.c_str(), ret.size(), "=stdin") == 0) {
      status = 0;
    } else {
      lua_pop(L, 1);
      status = luaL_loadbuffer(L, chunk.c_str(), chunk.size(), "=stdin");
      if (status == LUA_ERRSYNTAX && strstr(lua_tostring(L, -1), "<eof>")) {
        lua_pop(L, 1);
        continue;  // incomplete statement: read more
      }
    }
    chunk.clear();
    if (status != 0) {
      report(L, status);
      continue;
    }
    lua_pushvalue(L, show);
    lua_insert(L, -2);
    const int base = lua_gettop(L) - 1;  // show, then the chunk's results
    if (report(L, docall(L, 0, LUA_MULTRET)) != 0) {
      lua_settop(L, show);
      continue;
    }
    report(L, docall(L, lua_gettop(L) - base, 0));
    lua_settop(L, show);
  }
  fputs("\n", stdout);
}

}  // namespace

int main(int argc, char **argv) {
  lua_State *L = luaL_newstate();
  if (!L) {
    fprintf(stderr, "th: cannot create a Lua state (out of memory)\n");
    return 1;
  }
  luaL_openlibs(L);
  installSources(L);
  if (requireModule(L, "torch") != 0) return 1;

  bool interactive = false;
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "-l") == 0 || strcmp(a, "-e") == 0) {
      if (i + 1 >= argc) {
        usage();
        return 1;
      }
      int status = a[1] == 'l' ? requireModule(L, argv[i + 1]) : dostring(L, argv[i + 1], "=(command line)");
      if (status != 0) return 1;
      i++;
    } else if (strcmp(a, "-i") == 0) {
      interactive = true;
    } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage();
      return 0;
    } else if (a[0] == '-' && a[1] != '\0') {
      fprintf(stderr, "th: unknown option %s\n", a);
      usage();
      return 1;
    } else {
      break;
    }
  }
  bool ranSomething = i > 1;
  if (i < argc) {
    // `arg` as lua.c makes it: arg[0] the script, arg[1..] its arguments
    lua_newtable(L);
    for (int j = 0; j < argc; j++) {
      lua_pushstring(L, argv[j]);
      lua_rawseti(L, -2, j - i);
    }
    lua_setglobal(L, "arg");
    int status = luaL_loadfile(L, argv[i]);
    if (status == 0) {
      for (int j = i + 1; j < argc; j++) lua_pushstring(L, argv[j]);
      status = docall(L, argc - i - 1, 0);
    }
    if (report(L, status) != 0) return 1;
  } else if (!ranSomething) {
    interactive = true;
  }
  if (interactive) repl(L);
  lua_close(L);
  return 0;
}
