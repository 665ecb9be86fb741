-- `require 'paths'`: torch7's file-name and directory helpers (Linux), over libc through
-- LuaJIT's FFI.
--   paths.filep(f) / paths.dirp(d)        a regular file / a directory exists
--   paths.concat(a, b, ...)               joined, relative to the current directory
--   paths.basename(p[, ext]), paths.dirname(p), paths.extname(p)
--   paths.dir(d) (a table), paths.files(d[, pattern or f]), paths.iterdirs(d), paths.iterfiles(d)
--   paths.mkdir(d), paths.rmdir(d), paths.rmall(d, 'yes')
--   paths.cwd(), paths.home, paths.tmpname(), paths.uname(), paths.is_win(), paths.is_mac()
--   paths.thisfile([arg]), paths.dofile(f), paths.require(libname), paths.findprogram(...)
local ffi = require 'ffi'

paths = paths or {}
local paths = paths

local function declare(decl)
   pcall(ffi.cdef, decl)  -- another module may have declared it already
end
declare('typedef struct __dirstream DIR;')
declare('DIR *opendir(const char *name);')
declare('int closedir(DIR *dirp);')
declare([[struct paths_dirent { uint64_t d_ino; int64_t d_off; unsigned short d_reclen; unsigned char d_type;
                                char d_name[256]; };]])
declare('void *readdir(DIR *dirp);')
declare('int access(const char *path, int mode);')
declare('int mkdir(const char *path, unsigned int mode);')
declare('int rmdir(const char *path);')
declare('char *getcwd(char *buf, size_t size);')
declare([[struct paths_utsname { char sysname[65]; char nodename[65]; char release[65]; char version[65];
                                 char machine[65]; char domainname[65]; };]])
declare('int uname(void *buf);')
declare('char *strerror(int errnum);')
declare('long readlink(const char *path, char *buf, size_t size);')
local C = ffi.C

local function isDirectory(path)
   local d = C.opendir(path)
   if d == nil then return false end
   C.closedir(d)
   return true
end

function paths.dirp(path)
   return type(path) == 'string' and isDirectory(path)
end

-- a file that exists and is no directory
function paths.filep(path)
   return type(path) == 'string' and C.access(path, 0) == 0 and not isDirectory(path)
end

function paths.cwd()
   local buf = ffi.new('char[?]', 4096)
   if C.getcwd(buf, 4096) == nil then return nil end
   return ffi.string(buf)
end

-- '/a/./b/../c' as '/a/c'
local function normalize(path)
   local absolute = path:sub(1, 1) == '/'
   local parts = {}
   for part in path:gmatch('[^/]+') do
      if part == '..' and #parts > 0 and parts[#parts] ~= '..' then
         parts[#parts] = nil
      elseif part ~= '.' and not (part == '..' and absolute) then
         parts[#parts + 1] = part
      end
   end
   local joined = table.concat(parts, '/')
   if absolute then return '/' .. joined end
   return joined == '' and '.' or joined
end

function paths.concat(...)
   local result = paths.cwd()
   for i = 1, select('#', ...) do
      local p = select(i, ...)
      if type(p) ~= 'string' then error('paths.concat: strings expected', 2) end
      if p:sub(1, 1) == '/' then result = p else result = result .. '/' .. p end
   end
   return normalize(result)
end

-- the last component, without ext (given without its dot, or with it)
function paths.basename(path, ext)
   local base = path:gsub('/+$', ''):match('[^/]*$')
   if base == '' then base = path:match('^/') and '/' or '' end
   if ext then
      ext = ext:gsub('^%.', '')
      local suffix = '.' .. ext
      if #base > #suffix and base:sub(-#suffix) == suffix then base = base:sub(1, -#suffix - 1) end
   end
   return base
end

function paths.dirname(path)
   local trimmed = path:gsub('/+$', '')
   local dir = trimmed:match('^(.*)/[^/]*$')
   if dir == nil then return path:sub(1, 1) == '/' and '/' or '.' end
   if dir == '' then return '/' end
   return dir
end

-- the extension without its dot, or nil
function paths.extname(path)
   return paths.basename(path):match('^.+%.([^%.]+)$')
end

-- the names in directory d ('.' and '..' included), or nil
function paths.dir(d)
   local dirp = C.opendir(d)
   if dirp == nil then return nil end
   local names = {}
   while true do
      local entry = C.readdir(dirp)
      if entry == nil then break end
      names[#names + 1] = ffi.string(ffi.cast('struct paths_dirent *', entry).d_name)
   end
   C.closedir(dirp)
   table.sort(names)
   return names
end

-- an iterator over the names in directory d, those matching f (a pattern or a predicate)
function paths.files(d, f)
   local names = paths.dir(d) or {}
   if type(f) == 'string' then
      local pattern = f
      f = function(name) return name:find(pattern) end
   elseif f ~= nil and type(f) ~= 'function' then
      error('paths.files: argument 2 must be a pattern or a function, got ' .. type(f), 2)
   end
   local i = 0
   return function()
      while true do
         i = i + 1
         local name = names[i]
         if name == nil then return nil end
         if not f or f(name) then return name end
      end
   end
end

function paths.iterdirs(d)
   return paths.files(d, function(name)
      return name ~= '.' and name ~= '..' and paths.dirp(paths.concat(d, name))
   end)
end

function paths.iterfiles(d)
   return paths.files(d, function(name) return paths.filep(paths.concat(d, name)) end)
end

local function errnoResult()
   return nil, ffi.string(C.strerror(ffi.errno()))
end

function paths.mkdir(d)
   if C.mkdir(d, tonumber('777', 8)) == 0 then return true end
   return errnoResult()
end

function paths.rmdir(d)
   if C.rmdir(d) == 0 then return true end
   return errnoResult()
end

-- removes d and everything in it; 'yes' must be given
function paths.rmall(d, confirm)
   if confirm ~= 'yes' then return nil, "missing second argument ('yes')" end
   if paths.dirp(d) then
      for name in paths.files(d) do
         if name ~= '.' and name ~= '..' then
            local ok, err = paths.rmall(paths.concat(d, name), 'yes')
            if not ok then return nil, err, paths.concat(d, name) end
         end
      end
      return paths.rmdir(d)
   elseif C.access(d, 0) == 0 then
      return os.remove(d)
   end
   return nil, 'not a file or directory', d
end

function paths.tmpname()
   return os.tmpname()
end

-- sysname, nodename, release, version, machine
function paths.uname()
   local u = ffi.new('struct paths_utsname')
   if C.uname(u) ~= 0 then return 'Linux' end
   return ffi.string(u.sysname), ffi.string(u.nodename), ffi.string(u.release), ffi.string(u.version),
          ffi.string(u.machine)
end

function paths.is_win()
   return paths.uname():match('Windows') ~= nil
end

function paths.is_mac()
   return paths.uname():match('Darwin') ~= nil
end

paths.home = os.getenv('HOME') or '.'

-- the directory of the running executable
function paths.execdir()
   local buf = ffi.new('char[?]', 4096)
   local n = C.readlink('/proc/self/exe', buf, 4095)
   if n <= 0 then return nil end
   return paths.dirname(ffi.string(buf, n))
end

-- the file of the calling code (depth frames up, 2 by default); with arg, arg beside it
function paths.thisfile(arg, depth)
   local source = debug.getinfo(depth or 2, 'S').source
   local file = type(source) == 'string' and source:match('^@(.*)$') and paths.concat(source:sub(2)) or nil
   if type(arg) == 'string' then
      return file and paths.concat(paths.dirname(file), arg) or arg
   end
   return file
end

-- dofile(f) with f relative to the calling file's directory
function paths.dofile(f, depth)
   local here = paths.thisfile(nil, 1 + (depth or 2))
   if here then f = paths.concat(paths.dirname(here), f) end
   return dofile(f)
end

-- a Lua C library found on package.cpath, loaded by its luaopen_<name>
function paths.require(name)
   for template in package.cpath:gmatch('[^;]+') do
      local file = template:gsub('%?', name)
      if paths.filep(file) then
         local open, err = package.loadlib(file, 'luaopen_' .. name:gsub('%.', '_'))
         if not open then error(err, 2) end
         return open()
      end
   end
   error("paths.require: no library '" .. name .. "' on package.cpath", 2)
end

-- the full path of the first of the programs found on PATH, or nil
function paths.findprogram(...)
   for i = 1, select('#', ...) do
      local exe = select(i, ...)
      for dir in (os.getenv('PATH') or '.'):gmatch('[^:]+') do
         local file = paths.concat(dir, exe)
         if paths.filep(file) then return file end
      end
   end
   return nil
end

return paths
