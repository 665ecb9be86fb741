-- paths (torch7's file-name and directory helpers) against what the shell and Lua's io say
-- of a scratch directory, and xlua's progress bar, print, formatTime and require.
require 'paths'
require 'xlua'
local tests = {}

local function shell(command)
   local p = io.popen(command)
   local out = p:read('*a')
   p:close()
   return out
end

-- a fresh directory holding a.txt, b.lua and sub/
local function scratch()
   local d = os.tmpname()
   os.remove(d)
   check.eq(paths.mkdir(d), true, 'mkdir')
   for _, name in ipairs({ 'a.txt', 'b.lua' }) do
      local f = io.open(d .. '/' .. name, 'w')
      f:write('return 7\n')
      f:close()
   end
   check.eq(paths.mkdir(d .. '/sub'), true)
   return d
end

function tests.files_and_directories()
   local d = scratch()
   check.ok(paths.dirp(d) and not paths.filep(d), 'a directory')
   check.ok(paths.filep(d .. '/a.txt') and not paths.dirp(d .. '/a.txt'), 'a file')
   check.ok(not paths.filep(d .. '/none') and not paths.dirp(d .. '/none'), 'nothing')
   check.eq(table.concat(paths.dir(d), ' '), '. .. a.txt b.lua sub')
   local listed = {}
   for name in paths.files(d, '%.lua$') do listed[#listed + 1] = name end
   check.eq(table.concat(listed, ' '), 'b.lua', 'files by pattern')
   listed = {}
   for name in paths.iterfiles(d) do listed[#listed + 1] = name end
   check.eq(table.concat(listed, ' '), 'a.txt b.lua')
   listed = {}
   for name in paths.iterdirs(d) do listed[#listed + 1] = name end
   check.eq(table.concat(listed, ' '), 'sub')
   local ok, err = paths.mkdir(d)
   check.ok(ok == nil and err:find('exists'), 'mkdir of an existing directory: ' .. tostring(err))
   check.eq(paths.dir(d .. '/none'), nil)
   check.eq(paths.rmall(d), nil, "rmall needs 'yes'")
   check.ok(paths.dirp(d))
   check.eq(paths.rmall(d, 'yes'), true)
   check.ok(not paths.dirp(d), 'removed with its contents')
   check.eq(shell("test -e '" .. d .. "' && echo yes || echo no"), 'no\n')
end

function tests.names()
   check.eq(paths.basename('/a/b/c.lua'), 'c.lua')
   check.eq(paths.basename('/a/b/c.lua', 'lua'), 'c')
   check.eq(paths.basename('/a/b/'), 'b')
   check.eq(paths.dirname('/a/b/c.lua'), '/a/b')
   check.eq(paths.dirname('c.lua'), '.')
   check.eq(paths.dirname('/c'), '/')
   check.eq(paths.extname('x/y.tar.gz'), 'gz')
   check.eq(paths.extname('x/y'), nil)
   check.eq(paths.concat('/a', 'b', '../c', './d'), '/a/c/d')
   check.eq(paths.concat('/a', '/b'), '/b', 'an absolute part restarts')
   check.eq(paths.cwd(), shell('pwd'):gsub('\n$', ''))
   check.eq(paths.concat('x'), paths.cwd() .. '/x', 'relative to the current directory')
   check.eq(paths.concat(), paths.cwd())
   check.eq(paths.home, os.getenv('HOME'))
   check.eq(paths.uname(), shell('uname -s'):gsub('\n$', ''))
   check.eq(paths.is_win(), false)
   check.eq(paths.is_mac(), false)
   check.eq(paths.findprogram('sh'), shell('command -v sh'):gsub('\n$', ''))
   check.ok(type(paths.tmpname()) == 'string')
end

function tests.this_file_and_dofile()
   local d = scratch()
   local f = io.open(d .. '/caller.lua', 'w')
   f:write("require 'paths'\nreturn paths.thisfile(), paths.thisfile('b.lua'), paths.dofile('b.lua')\n")
   f:close()
   local here, beside, value = dofile(d .. '/caller.lua')
   check.eq(here, d .. '/caller.lua')
   check.eq(beside, d .. '/b.lua')
   check.eq(value, 7, 'dofile relative to the calling file')
   paths.rmall(d, 'yes')
end

function tests.xlua()
   check.eq(xlua.formatTime(3725), '1h2m')
   check.eq(xlua.formatTime(61.5), '1m1s')
   check.eq(xlua.formatTime(0.25), '250ms')
   check.eq(xlua.formatTime(0), '0ms')
   check.eq(xlua.require('paths'), paths)
   local quiet = print
   print = function() end
   local missing = xlua.require('no_such_package_here', true)
   print = quiet
   check.eq(missing, false, 'a missing package is false, not an error')

   -- progress and print write to io.write: capture it
   local written = {}
   local write = io.write
   io.write = function(...) for _, s in ipairs({ ... }) do written[#written + 1] = tostring(s) end end
   local ok, err = pcall(function()
      for i = 1, 4 do xlua.progress(i, 4) end
      xlua.print({ x = 1 }, 'and')
   end)
   io.write = write
   check.ok(ok, tostring(err))
   local text = table.concat(written)
   check.ok(text:find('] 1/4 ETA: ', 1, true), text)
   check.ok(text:find('] 4/4 Tot: ', 1, true), text)
   check.ok(text:find('\r [' .. string.rep('=', 45) .. '>] 4/4', 1, true), 'a full bar at the end')
   check.ok(text:find('{[x] = 1}    and\n', 1, true), text)
end

return tests
