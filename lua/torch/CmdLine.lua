-- torch.CmdLine: torch7's command-line parser.
--   local cmd = torch.CmdLine()
--   cmd:text('Train a model'); cmd:option('-lr', 0.1, 'learning rate'); cmd:argument('-data', 'data file')
--   local params = cmd:parse(arg)   -- params.lr, params.data
-- Options are named with their dash ('-lr') and have a default whose type they keep
-- (a boolean option given on the command line flips its default); arguments are
-- positional and required. -h, -help and --help print the help and exit; a bad command
-- line prints the error and the help and exits with status 1 (CmdLine:error).
local CmdLine = torch.class('torch.CmdLine')

local function strip(key)
   return (key:gsub('^%-+', ''))
end

function CmdLine:__init(argseparator, keyseparator)
   self.argseparator = argseparator or ','
   self.keyseparator = keyseparator or '='
   self.options = {}
   self.arguments = {}
   self.helplines = {}  -- text lines, options and arguments, in the order given
   self.dateformat = nil
   self.silentio = false
end

function CmdLine:text(text)
   self.helplines[#self.helplines + 1] = text or ''
end

function CmdLine:option(key, default, help, type_)
   if default == nil then error('option ' .. key .. ' has no default value', 2) end
   type_ = type_ or type(default)
   if type(default) ~= type_ then error('option ' .. key .. ' has a default value of the wrong type', 2) end
   self.options[key] = { key = key, default = default, help = help or '', type = type_ }
   self.helplines[#self.helplines + 1] = self.options[key]
end

function CmdLine:argument(key, help, type_)
   self.arguments[#self.arguments + 1] = { key = key, help = help or '', type = type_ }
   self.helplines[#self.helplines + 1] = self.arguments[#self.arguments]
end

-- The parameters with every option at its default.
function CmdLine:default()
   local params = {}
   for key, option in pairs(self.options) do params[strip(key)] = option.default end
   return params
end

local function convert(value, type_, what)
   if type_ == 'number' then
      local n = tonumber(value)
      if n == nil then error(what .. ' expects a number, got ' .. tostring(value), 0) end
      return n
   end
   return value
end

-- parse(arg): the table of parameters, named without their dashes.
function CmdLine:parse(arg)
   local params = self:default()
   local i, nArgument = 1, 0
   local ok, err = pcall(function()
      while i <= #arg do
         local a = arg[i]
         if a == '-h' or a == '-help' or a == '--help' then
            self:help(arg)
            os.exit(0)
         end
         local option = self.options[a]
         if option then
            if option.type == 'boolean' then
               params[strip(a)] = not option.default
               i = i + 1
            else
               if arg[i + 1] == nil then error('option ' .. a .. ' needs a value', 0) end
               params[strip(a)] = convert(arg[i + 1], option.type, 'option ' .. a)
               i = i + 2
            end
         else
            nArgument = nArgument + 1
            local argument = self.arguments[nArgument]
            if not argument then error('invalid argument: ' .. tostring(a), 0) end
            params[strip(argument.key)] = convert(a, argument.type, 'argument ' .. strip(argument.key))
            i = i + 1
         end
      end
      if nArgument < #self.arguments then error('not enough arguments', 0) end
   end)
   if not ok then self:error(err, arg) end
   return params
end

-- As torch7's: the message on stderr, the help on stdout, and the program exits with 1.
function CmdLine:error(msg, arg)
   print('')
   io.stderr:write(tostring(msg))
   print('')
   self:help(arg)
   os.exit(1)
end

function CmdLine:_helpText(arg)
   local out = { 'Usage: ' }
   if arg and arg[0] then out[#out + 1] = arg[0] .. ' ' end
   out[#out + 1] = '[options]'
   for _, argument in ipairs(self.arguments) do out[#out + 1] = ' <' .. strip(argument.key) .. '>' end
   out[#out + 1] = '\n'
   local width = 0
   for _, line in ipairs(self.helplines) do
      if type(line) == 'table' then
         width = math.max(width, line.default ~= nil and #line.key or #strip(line.key) + 2)
      end
   end
   for _, line in ipairs(self.helplines) do
      if type(line) == 'table' then
         if line.default ~= nil then
            local default = tostring(line.default)
            if default == '' then default = "''" end
            out[#out + 1] = '  ' .. line.key .. string.rep(' ', width - #line.key) .. ' ' .. line.help .. ' [' .. default .. ']'
         else
            local name = '<' .. strip(line.key) .. '>'
            out[#out + 1] = '  ' .. name .. string.rep(' ', width - #name) .. ' ' .. line.help
         end
      else
         out[#out + 1] = line
      end
      out[#out + 1] = '\n'
   end
   return table.concat(out)
end

function CmdLine:help(arg)
   io.write(self:_helpText(arg))
end

-- A name for a run: prefix, then the arguments and the options that differ from their
-- defaults (sorted), as key=value joined by the separator; ignore[k] leaves k out, and
-- ignore[k] == false keeps k even at its default.
function CmdLine:string(prefix, params, ignore)
   prefix, ignore = prefix or '', ignore or {}
   local arguments, options = {}, {}
   for k, v in pairs(params) do
      if not ignore[k] then
         local option = self.options['-' .. k]
         if option then
            if v ~= option.default or ignore[k] == false then
               if type(v) == 'boolean' then v = v and 't' or 'f' end
               options[#options + 1] = k .. self.keyseparator .. tostring(v)
            end
         else
            for i, argument in ipairs(self.arguments) do
               if strip(argument.key) == k then arguments[i] = k .. self.keyseparator .. tostring(v) end
            end
         end
      end
   end
   table.sort(options)
   local parts = {}
   for i = 1, #self.arguments do parts[#parts + 1] = arguments[i] end
   for _, o in ipairs(options) do parts[#parts + 1] = o end
   if #parts == 0 then return prefix end
   return prefix .. self.argseparator .. table.concat(parts, self.argseparator)
end

-- Prefixes what log() prints with the date in format (os.date's), and name.
function CmdLine:addTime(name, format)
   format = format or '%Y-%m-%d %H:%M:%S'
   if type(format) ~= 'string' then error('addTime: the format must be a string', 2) end
   self.dateformat = format .. (name and ' [' .. name .. ']: ' or ' ')
end

-- Stops log() from printing to the screen; it writes to the log file only.
function CmdLine:silent()
   self.silentio = true
end

-- Sends everything print() prints to file (a path or an open file) too, and logs params
-- (sorted by key) first when given.
function CmdLine:log(file, params)
   local f = io.type(file) == 'file' and file or assert(io.open(file, 'w'))
   local screenPrint = self.screenPrint or print
   self.screenPrint = screenPrint
   local cmd = self
   print = function(...)
      local n = select('#', ...)
      local parts = { ... }
      for i = 1, n do parts[i] = tostring(parts[i]) end
      local line = table.concat(parts, '\t', 1, n)
      if cmd.dateformat then line = os.date(cmd.dateformat) .. line end
      if not cmd.silentio then screenPrint(line) end
      f:write(line, '\n')
      f:flush()
   end
   if params then
      print('[program started on ' .. os.date() .. ']')
      print('[command line arguments]')
      local keys = {}
      for k in pairs(params) do keys[#keys + 1] = k end
      table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
      for _, k in ipairs(keys) do print(k, params[k]) end
      print('[----------------------]')
   end
end
