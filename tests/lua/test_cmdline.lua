-- torch.CmdLine: options with typed defaults, positional arguments, the run name of
-- string(), the help text and log().
local tests = {}

local function makeCmd()
   local cmd = torch.CmdLine()
   cmd:text('Trains a model.')
   cmd:option('-lr', 0.1, 'learning rate')
   cmd:option('-name', 'run', 'a name')
   cmd:option('-cuda', false, 'use CUDA')
   cmd:argument('-data', 'the data file')
   return cmd
end

function tests.parse()
   local p = makeCmd():parse({ 'train.t7', '-lr', '0.5', '-cuda' })
   check.eq(p.lr, 0.5); check.eq(type(p.lr), 'number')
   check.eq(p.name, 'run', 'default kept')
   check.eq(p.cuda, true, 'a boolean option flips its default')
   check.eq(p.data, 'train.t7')
   local d = makeCmd():parse({ 'x' })
   check.eq(d.lr, 0.1); check.eq(d.cuda, false)
end

-- a bad command line: torch7's words on stderr, the help on stdout, exit status 1 (run in
-- a th subprocess, since the parse exits)
function tests.parse_errors()
   local th = arg and arg[-1] or 'th'
   if th:find('/') and not th:find('^/') then th = os.getenv('PWD') .. '/' .. th end
   local script = os.tmpname()
   local f = io.open(script, 'w')
   f:write([[
local cmd = torch.CmdLine()
cmd:text('Trains a model.')
cmd:option('-lr', 0.1, 'learning rate')
cmd:argument('-data', 'the data file')
local p = cmd:parse(arg)
print('parsed', p.data, p.lr)
]])
   f:close()
   local function run(args, stream)
      local redirect = stream == 'stdout' and ' 2>/dev/null' or ' 2>&1 >/dev/null'
      local p = io.popen("'" .. th .. "' '" .. script .. "' " .. args .. redirect .. '; echo "rc=$?"')
      local out = p:read('*a')
      p:close()
      local text, rc = out:match('^(.*)rc=(%d+)\n$')
      return text, tonumber(rc)
   end
   local cases = { { '', 'not enough arguments' }, { 'a b', 'invalid argument: b' },
                   { 'a -lr fast', 'expects a number' }, { 'a -lr', 'needs a value' } }
   for _, case in ipairs(cases) do
      local out, rc = run(case[1], 'stdout')
      check.eq(rc, 1, case[1] .. ': exit status')
      check.ok(out:find('Trains a model.', 1, true) and out:find('-lr', 1, true), case[1] .. ': help on stdout: ' .. out)
      local err = run(case[1], 'stderr')
      check.ok(err:find(case[2], 1, true), case[1] .. ': ' .. err)
   end
   local out, rc = run('x -lr 2', 'stdout')
   check.eq(rc, 0); check.eq(out, 'parsed\tx\t2\n')
   os.remove(script)
   check.raises(function() torch.CmdLine():option('-x') end, 'no default')
   check.raises(function() torch.CmdLine():option('-x', 1, 'x', 'string') end, 'wrong type')
end

function tests.string_names_a_run()
   local cmd = makeCmd()
   local p = cmd:parse({ 'd.t7', '-lr', '0.5', '-cuda' })
   check.eq(cmd:string('exp', p, {}), 'exp,data=d.t7,cuda=t,lr=0.5', 'arguments, then changed options sorted')
   check.eq(cmd:string('exp', p, { lr = true }), 'exp,data=d.t7,cuda=t', 'ignored')
   check.eq(cmd:string('exp', p, { name = false }), 'exp,data=d.t7,cuda=t,lr=0.5,name=run', 'kept at its default')
   local c2 = torch.CmdLine('_', ':')
   c2:option('-k', 1, '')
   check.eq(c2:string('p', { k = 2 }, {}), 'p_k:2', 'separators')
   check.eq(c2:string('p', { k = 1 }, {}), 'p', 'nothing changed')
end

function tests.help_text()
   local out = {}
   local write = io.write
   io.write = function(s) out[#out + 1] = s end
   makeCmd():help({ [0] = 'train.lua' })
   io.write = write
   local text = table.concat(out)
   local expected = 'Usage: train.lua [options] <data>\n' ..
                    'Trains a model.\n' ..
                    '  -lr    learning rate [0.1]\n' ..
                    '  -name  a name [run]\n' ..
                    '  -cuda  use CUDA [false]\n' ..
                    '  <data> the data file\n'
   check.eq(text, expected)
end

function tests.log()
   local path = os.tmpname()
   local cmd = torch.CmdLine()
   local print_ = print
   local screen = {}
   cmd.screenPrint = function(line) screen[#screen + 1] = line end
   cmd:log(path, { b = 2, a = 'x' })
   print('hello', 3)
   cmd:silent()
   print('quiet')
   print = print_
   local f = io.open(path); local text = f:read('*a'); f:close()
   os.remove(path)
   check.ok(text:find('[command line arguments]\na\tx\nb\t2\n[----------------------]\n', 1, true), text)
   check.ok(text:find('hello\t3\nquiet\n', 1, true), text)
   check.eq(screen[#screen], 'hello\t3', 'silent() stops the screen copy')
end

return tests
