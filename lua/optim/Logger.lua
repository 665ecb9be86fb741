-- optim.Logger([filename[, timestamp]]): a table of values per step, written to a text file
-- as torch7 did: a header of names separated by tabs, then one row per add, numbers as
-- %11.4e, each followed by a tab. Without a filename it writes to stdout.
--   logger = optim.Logger('train.log')
--   logger:setNames{'training error', 'test error'}
--   logger:add{0.5, 0.6}
-- or, without setNames, logger:add{['training error'] = 0.5, ...} (the first add writes the
-- header; keys are written in sorted order, where torch7 followed pairs()).
-- plot() needs the gnuplot package, which this Lua distribution lacks: it warns once and
-- does nothing.
local Logger = torch.class('optim.Logger')

function Logger:__init(filename, timestamp)
   if filename then
      self.name = filename
      local dir = filename:match('^(.*)/[^/]*$')
      if dir and dir ~= '' then
         os.execute('mkdir -p "' .. dir .. '"')
      end
      if timestamp then
         filename = filename .. '-' .. os.date('%Y_%m_%d_%X')
      end
      local file, err = io.open(filename, 'w')
      if not file then error('optim.Logger: cannot open ' .. filename .. ': ' .. tostring(err), 2) end
      self.file = file
      self.epsfile = self.name .. '.eps'
   else
      self.file = io.stdout
      self.name = 'stdout'
      print('<Logger> warning: no path provided, logging to std out')
   end
   self.empty = true
   self.symbols = {}
   self.styles = {}
   self.names = {}
   self.idx = {}
   self.order = {}
   self.figure = nil
   self.showPlot = true
   self.plotRawCmd = nil
   self.defaultStyle = '+'
   self.logscale = false
end

function Logger:_header(keys)
   self.empty = false
   self.nsymbols = #keys
   self.order = keys
   for _, key in ipairs(keys) do
      self.file:write(tostring(self.names[key]) .. '\t')
      self.symbols[key] = {}
      self.styles[key] = { self.defaultStyle }
   end
   self.file:write('\n')
   self.file:flush()
end

function Logger:setNames(names)
   local keys = {}
   self.names = {}
   for k, name in ipairs(names) do
      keys[k] = k
      self.names[k] = name
      self.idx[name] = k
   end
   self:_header(keys)
   return self
end

function Logger:add(symbols)
   if self.empty then
      local keys = {}
      for k in pairs(symbols) do keys[#keys + 1] = k end
      table.sort(keys, function(a, b)
         if type(a) == type(b) then return a < b end
         return type(a) == 'number'
      end)
      for _, k in ipairs(keys) do
         self.names[k] = k
         self.idx[k] = k
      end
      self:_header(keys)
   end
   local cells = {}
   for i, k in ipairs(self.order) do
      local val = symbols[k]
      if type(val) == 'number' then
         cells[i] = string.format('%11.4e', val)
      elseif type(val) == 'string' then
         cells[i] = val
      else
         error('optim.Logger: can only log numbers and strings (got ' .. type(val) .. ' for ' .. tostring(k) .. ')', 2)
      end
   end
   for _, cell in ipairs(cells) do self.file:write(cell .. '\t') end
   self.file:write('\n')
   self.file:flush()
   for _, k in ipairs(self.order) do
      table.insert(self.symbols[k], symbols[k])
   end
end

function Logger:style(symbols)
   for name, style in pairs(symbols) do
      if type(style) == 'string' then
         self.styles[name] = { style }
      elseif type(style) == 'table' then
         self.styles[name] = style
      else
         error('optim.Logger: style should be a string or a table of strings', 2)
      end
   end
   return self
end

function Logger:setlogscale(value)
   self.logscale = value
end

function Logger:plot()
   if not self.warned then
      print('<Logger> warning: cannot plot: no gnuplot package in this Lua distribution')
      self.warned = true
   end
end
