-- The `th` launcher run as a subprocess (-e, -l, scripts with `arg`, the REPL printing
-- values), and the package utilities torch.Timer and torch.setnumthreads.
local tests = {}

-- the th running these tests, by an absolute path (a test changes directory)
local th = arg and arg[-1] or 'th'
if th:find('/') and not th:find('^/') then th = os.getenv('PWD') .. '/' .. th end

local function shell(command)
   local p = io.popen(command .. ' 2>&1; echo "rc=$?"')
   local out = p:read('*a')
   p:close()
   local text, rc = out:match('^(.*)rc=(%d+)\n$')
   return text, tonumber(rc)
end

local function quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

function tests.execute_statement()
   local out, rc = shell(quote(th) .. ' -e ' .. quote('print(1 + 2, torch.typename(torch.Tensor()))'))
   check.eq(rc, 0); check.eq(out, '3\ttorch.DoubleTensor\n')
   out, rc = shell(quote(th) .. ' -e ' .. quote("error('broken')"))
   check.ok(rc ~= 0, 'an error exits with a failure status')
   check.ok(out:find('broken', 1, true), out)
end

function tests.require_library()
   local dir = os.tmpname()
   os.remove(dir)
   os.execute('mkdir ' .. quote(dir))
   local f = io.open(dir .. '/thtestlib.lua', 'w')
   f:write('return { answer = 42 }\n')
   f:close()
   local out, rc = shell('cd ' .. quote(dir) .. ' && ' .. quote(th) .. ' -l thtestlib -e ' .. quote('print(thtestlib.answer)'))
   os.remove(dir .. '/thtestlib.lua'); os.remove(dir)
   check.eq(rc, 0); check.eq(out, '42\n', '-l requires the library and makes it a global')
   out, rc = shell(quote(th) .. ' -l no_such_library_here')
   check.ok(rc ~= 0); check.ok(out:find('no_such_library_here', 1, true))
end

function tests.script_arguments()
   local path = os.tmpname()
   local f = io.open(path, 'w')
   f:write("print(arg[0] == ... and 'x' or 'y', #arg, arg[1], arg[2], select('#', ...))\n")
   f:close()
   local out, rc = shell(quote(th) .. ' ' .. quote(path) .. ' first 2')
   os.remove(path)
   check.eq(rc, 0)
   check.eq(out, 'y\t2\tfirst\t2\t2\n', 'arg[1..] and ... hold the arguments')
end

function tests.repl_prints_values()
   local input = '1 + 1\nt = torch.Tensor({1, 2})\nt\nfor i = 1, 2 do\nprint(i * 10)\nend\nerror("oops")\n"still here"\n'
   local out, rc = shell('printf ' .. quote(input:gsub('\n', '\\n')) .. ' | ' .. quote(th))
   check.eq(rc, 0)
   local values = out:gsub('[th%.]+> ', '')
   check.ok(values:find('^2\n'), 'an expression prints its value: ' .. out)
   check.ok(values:find(tostring(torch.Tensor({ 1, 2 })), 1, true), 'a tensor prints its tostring: ' .. out)
   check.ok(values:find('10\n20\n', 1, true), 'a statement over several lines runs once complete')
   check.ok(values:find('oops', 1, true), 'an error is reported')
   check.ok(values:find('still here\n', 1, true), 'and the REPL goes on')
end

function tests.timer()
   local timer = torch.Timer()
   local function busy(seconds)
      local start = os.clock()
      while os.clock() - start < seconds do end
   end
   busy(0.05)
   local t = timer:time()
   check.ok(t.real >= 0.04, 'real time ' .. t.real)
   check.ok(t.user + t.sys >= 0.03, 'cpu time ' .. (t.user + t.sys))
   timer:stop()
   local stopped = timer:time().real
   busy(0.03)
   check.eq(timer:time().real, stopped, 'a stopped timer does not move')
   timer:resume()
   busy(0.03)
   local resumed = timer:time().real
   check.ok(resumed >= stopped + 0.02, 'resumed')
   -- reset starts again from 0: what it reads after a reset is at most what a timer started
   -- just before the reset reads (no wall-clock bound, which a loaded machine would break).
   local outer = torch.Timer()
   timer:reset()
   local afterReset = timer:time().real
   local sinceOuter = outer:time().real
   check.ok(afterReset <= sinceOuter and afterReset < resumed, 'reset: ' .. afterReset .. ' s')
end

function tests.numthreads()
   local n = torch.getnumthreads()
   check.ok(n >= 1)
   torch.setnumthreads(1)
   check.eq(torch.getnumthreads(), 1)
   torch.setnumthreads(n)
   check.eq(torch.getnumthreads(), n)
end

return tests
