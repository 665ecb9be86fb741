"""Writes lua_sources.cpp: the torch package's Lua files as C strings, for `th`."""

import sys

out, files = sys.argv[1], sys.argv[2:]
with open(out, "w") as f:
    f.write('namespace luat {\nstruct LuaSource { const char *module; const char *chunkname; const char *code; };\n')
    f.write("extern const LuaSource kLuaSources[] = {\n")
    for path in files:
        rel = path[path.index("lua/") + 4 :]  # torch/Tensor.lua
        module = rel[: -len(".lua")].replace("/", ".")
        if module.endswith(".init"):
            module = module[: -len(".init")]
        code = open(path, encoding="utf-8").read()
        # three-digit octal escapes end where they end, whatever follows
        literal = "".join(
            "\\%03o" % b if b < 32 or b >= 127 or b in (34, 92, 63) else chr(b) for b in code.encode("utf-8")
        )
        literal = literal.replace("\\012", "\\n\"\n\"")
        f.write('  {"%s", "@%s", "%s"},\n' % (module, rel, literal))
    f.write("  {nullptr, nullptr, nullptr},\n};\n}  // namespace luat\n")
