-- torch7's TensorMath: every function as torch.fn([res,] ...) and as a method, over the C
-- functions of lua/csrc/generic/Tensor.cpp (TH with 1-based indices).
--
-- Note [Argument shapes]: each function is declared once, as torch7's cwrap declared it: a
-- list of variants, each the list of its C function's arguments. An argument is required,
-- optional with a default, or a result. A call takes the first variant, in declaration
-- order and then with the fewest optional arguments given (cwrap's order), whose given
-- arguments have the declared kinds. The two forms differ only in the results and sources:
--   OUT  a result: created by torch.fn when left out; a method writes self (`a:add(b)`).
--   NEW  a result created when left out, in both forms (`t:sum(2)` returns a new tensor).
--   SRC  a source: required by torch.fn; a method that leaves it out reads self.
-- Shapes, types, dimensions and option letters are checked here or by TH before anything
-- is written, so a failing call raises a Lua error and changes no tensor.
local torch = torch
local C = torch._C
local isTensor = torch.isTensor
local unpack = unpack or table.unpack

-- argument specs ([1] is the kind: T this tensor type, Byte/Long tensors, P a Float or
-- Double tensor of probabilities, n number, b boolean, s string, dim a 1-based dimension
-- of the tensor argument `of`, list a table of tensors)
local OUT = { 'T', out = true, ret = true }
local NEW = { 'T', out = 'new', ret = true }
local NEWB = { 'Byte', out = 'new', ret = true }
local NEWL = { 'Long', out = 'new', ret = true }
local SRC = { 'T', src = true }
local RES = { 'T', ret = true }      -- a result that must be given
local FRESH = { 'T', fresh = true, ret = true } -- a result that cannot be given
local T, N, B, L = { 'T' }, { 'n' }, { 'Byte' }, { 'Long' }
local function opt(kind, default, values) return { kind, opt = default, values = values } end
local function dim(of, default) return { 'dim', of = of, opt = default } end
local function hidden(value) return { 'n', hidden = value } end

local function optional(spec, mode)
   return spec.opt ~= nil or spec.out == 'new' or (spec.out == true and mode == 'fn')
      or (spec.src == true and mode == 'method')
end

-- Patterns by number of given arguments, in cwrap's order (see the Note).
local function expand(variants, mode)
   local patterns = {}
   for _, v in ipairs(variants) do
      if not v.only or v.only == mode then
         local visible, optionals = {}, {}
         for i, s in ipairs(v) do
            if s.hidden == nil and not s.fresh then
               visible[#visible + 1] = i
               if optional(s, mode) then optionals[#optionals + 1] = i end
            end
         end
         for mask = 0, 2 ^ #optionals - 1 do
            local left = {}
            for k, pos in ipairs(optionals) do
               if math.floor(mask / 2 ^ (k - 1)) % 2 == 0 then left[pos] = true end
            end
            local given = {}
            for _, pos in ipairs(visible) do
               if not left[pos] then given[#given + 1] = pos end
            end
            patterns[#given] = patterns[#given] or {}
            table.insert(patterns[#given], { variant = v, given = given })
         end
      end
   end
   return patterns
end

local function usage(variants, mode, kindName)
   local lines = {}
   for _, v in ipairs(variants) do
      if not v.only or v.only == mode then
         local parts = {}
         for _, s in ipairs(v) do
            if s.hidden == nil and not s.fresh then
               local k = kindName[s[1]]
               if s.values then k = k .. " '" .. table.concat(s.values, "'|'") .. "'" end
               parts[#parts + 1] = optional(s, mode) and '[' .. k .. ']' or k
            end
         end
         lines[#lines + 1] = '  ' .. (#parts > 0 and table.concat(parts, ' ') or '(no arguments)')
      end
   end
   return table.concat(lines, '\n')
end

local function describe(args, n)
   local parts = {}
   for i = 1, n do parts[i] = torch.type(args[i]) end
   return n > 0 and table.concat(parts, ' ') or 'no arguments'
end

-- Fills the left-out arguments of variant v, checks dimensions and options, and calls it.
-- It is reached by tail calls only, so error level 2 is the user's call; the Lua
-- functions of variants raise at level 0 and are given the position here.
local function invoke(label, v, given, args, newOf)
   local full = {}
   for k, pos in ipairs(given) do full[pos] = args[k] end
   for i, s in ipairs(v) do
      if full[i] == nil then
         if s.hidden ~= nil then full[i] = s.hidden
         elseif s.fresh or s.out then full[i] = newOf[s[1]]()
         elseif s.src then full[i] = args[1] end
      end
   end
   for i, s in ipairs(v) do
      if full[i] == nil and s.opt ~= nil then
         full[i] = s.opt == 'last' and full[s.of]:dim() or s.opt
      end
      if s[1] == 'dim' then
         local d, nd = full[i], full[s.of]:dim()
         if d ~= math.floor(d) or d < 1 or d > nd then
            error(string.format('%s: dimension %s is out of range for a %dD tensor (1 to %d expected)',
                                label, tostring(d), nd, nd), 2)
         end
      elseif s.values then
         local ok = false
         for _, x in ipairs(s.values) do ok = ok or x == full[i] end
         if not ok then
            error(string.format("%s: option '%s' is not one of '%s'", label, tostring(full[i]),
                                table.concat(s.values, "', '")), 2)
         end
      end
   end
   -- TH's errors are raised again at the caller's line, without C argument positions
   local ok, r = pcall(v.fn, unpack(full, 1, #v))
   if not ok then
      local msg = tostring(r):gsub('^[^\n]-:%d+: ', ''):gsub('^invalid argument %d+: ', '')
                             :gsub("^bad argument #%d+ to '[^']*' %((.*)%)$", '%1')
      error(label .. ': ' .. msg, 2)
   end
   if r ~= nil then return r end
   local rets = {}
   for i, s in ipairs(v) do
      if s.ret then rets[#rets + 1] = full[i] end
   end
   return unpack(rets)
end

-- Per element type: the kinds, and the functions and methods made from declarations.
local typeFunctions = {}  -- typename -> name -> torch.fn form
local declared = {}       -- names of the torch.fn forms

local function isPlainTable(x) return type(x) == 'table' and not torch.typename(x) end

-- The functions and methods of torch.<TN>Tensor over the C functions f (C[TN]: TH's here,
-- THC's for cutorch's types); companion names the classes of its masks, indices and
-- probabilities (companion.Byte = 'CudaByte': torch.CudaByteTensor), the CPU ones by default.
function torch._defineTensorMath(TN, f, companion)
   companion = companion or { Byte = 'Byte', Long = 'Long', Int = 'Int', P = { 'Float', 'Double' } }
   local byteName, longName, intName = 'torch.' .. companion.Byte .. 'Tensor', 'torch.' .. companion.Long .. 'Tensor',
      'torch.' .. companion.Int .. 'Tensor'
   local pNames = { ['torch.' .. companion.P[1] .. 'Tensor'] = true, ['torch.' .. companion.P[2] .. 'Tensor'] = true }
   local name = 'torch.' .. TN .. 'Tensor'
   local m = torch._metatables[name].__methods
   local fns = {}
   typeFunctions[name] = fns
   local kinds = {
      T = function(x) return torch.typename(x) == name end,
      Byte = function(x) return torch.typename(x) == byteName end,
      Long = function(x) return torch.typename(x) == longName end,
      Int = function(x) return torch.typename(x) == intName end,
      P = function(x) return pNames[torch.typename(x)] == true end,
      n = function(x) return type(x) == 'number' end,
      dim = function(x) return type(x) == 'number' end,
      b = function(x) return type(x) == 'boolean' end,
      s = function(x) return type(x) == 'string' end,
      list = isPlainTable,
   }
   local kindName = { T = TN .. 'Tensor', Byte = companion.Byte .. 'Tensor', Long = companion.Long .. 'Tensor',
                      Int = companion.Int .. 'Tensor', P = companion.P[1] .. 'Tensor|' .. companion.P[2] .. 'Tensor',
                      n = 'number', dim = 'dim', b = 'boolean', s = 'string', list = '{' .. TN .. 'Tensor...}' }
   local newOf = {
      T = function() return f.new(nil, 1) end,
      Byte = function() return torch[companion.Byte .. 'Tensor']() end,
      Long = function() return torch[companion.Long .. 'Tensor']() end,
      Int = function() return torch[companion.Int .. 'Tensor']() end,
   }

   -- A declared function in one form: find(args, n) gives the matching pattern or nil;
   -- call(p, args) runs it; the table called directly raises a usage error on no match.
   local function dispatcher(label, variants, mode)
      local patterns = expand(variants, mode)
      local expected = usage(variants, mode, kindName)
      local d = {}
      function d.find(args, n)
         for _, p in ipairs(patterns[n] or {}) do
            local ok = true
            for k, pos in ipairs(p.given) do
               if not kinds[p.variant[pos][1]](args[k]) then ok = false break end
            end
            if ok then return p end
         end
      end
      function d.call(p, args) return invoke(label, p.variant, p.given, args, newOf) end
      function d.usageError(args, n, level)
         error(string.format('%s: invalid arguments: %s\nexpected arguments:\n%s', label, describe(args, n), expected), level)
      end
      d.run = function(...)
         local n = select('#', ...)
         while n > 0 and select(n, ...) == nil do n = n - 1 end
         local args = { ... }
         local p = d.find(args, n)
         if p then return d.call(p, args) end
         d.usageError(args, n, 3)
      end
      return d
   end

   -- def(name, variant...): a variant names its C function (c) or is a Lua function (call);
   -- variants whose C function this type lacks are dropped. methodOnly: no torch.fn form.
   local function define(fname, methodOnly, ...)
      local variants = {}
      for _, v in ipairs({ ... }) do
         local fn = v.call or f[v.c]
         if fn then
            local own = { fn = fn, only = v.only }
            for i, s in ipairs(v) do own[i] = s end
            variants[#variants + 1] = own
         end
      end
      if #variants == 0 then return end
      m[fname] = dispatcher(TN .. 'Tensor:' .. fname, variants, 'method').run
      if not methodOnly then
         fns[fname] = dispatcher('torch.' .. fname, variants, 'fn')
         declared[fname] = true
      end
   end
   local function def(fname, ...) define(fname, false, ...) end
   local function defMethod(fname, ...) define(fname, true, ...) end

   -- pointwise
   def('add', { c = 'add', OUT, SRC, N }, { c = 'cadd', OUT, SRC, opt('n', 1), T })
   def('csub', { c = 'sub', OUT, SRC, N }, { c = 'csub', OUT, SRC, opt('n', 1), T })
   for _, op in ipairs({ 'mul', 'div', 'fmod', 'remainder' }) do def(op, { c = op, OUT, SRC, N }) end
   def('mod', { c = 'fmod', OUT, SRC, N })
   for _, op in ipairs({ 'cmul', 'cdiv', 'cpow', 'cfmod', 'cremainder' }) do def(op, { c = op, OUT, SRC, T }) end
   def('cmod', { c = 'cfmod', OUT, SRC, T })
   def('cmax', { c = 'cmax', OUT, SRC, T }, { c = 'cmaxValue', OUT, SRC, N })
   def('cmin', { c = 'cmin', OUT, SRC, T }, { c = 'cminValue', OUT, SRC, N })
   def('clamp', { c = 'clamp', OUT, SRC, N, N })
   def('addcmul', { c = 'addcmul', OUT, SRC, opt('n', 1), T, T })
   def('addcdiv', { c = 'addcdiv', OUT, SRC, opt('n', 1), T, T })
   def('pow', { c = 'pow', OUT, SRC, N }, { c = 'tpow', OUT, N, SRC }, { call = math.pow, N, N })
   def('lerp', { c = 'lerp', OUT, SRC, T, N }, { call = function(a, b, w) return a + w * (b - a) end, N, N, N })
   -- the binary kernels of the op tables: x:bitand(3), x:cbitand(y), lshift, ...
   for _, k in ipairs(C.binaryKernels) do
      def(k[1], { c = k[1], OUT, SRC, T })
      def(k[2], { c = k[2], OUT, SRC, N })
   end
   def('atan2', { c = 'atan2', OUT, SRC, T }, { call = math.atan2, N, N })
   local function trunc(x) return x >= 0 and math.floor(x) or math.ceil(x) end
   local numberForms = {
      log = math.log, exp = math.exp, sqrt = math.sqrt, tanh = math.tanh, sin = math.sin, cos = math.cos,
      tan = math.tan, asin = math.asin, acos = math.acos, atan = math.atan, sinh = math.sinh,
      cosh = math.cosh, floor = math.floor, ceil = math.ceil, abs = math.abs, trunc = trunc,
      log1p = function(x) return math.log(1 + x) end,
      expm1 = function(x) return math.exp(x) - 1 end,
      log2 = function(x) return math.log(x) / math.log(2) end,
      log10 = math.log10,
      round = function(x) return x >= 0 and math.floor(x + 0.5) or math.ceil(x - 0.5) end,
      frac = function(x) return x - trunc(x) end,
      rsqrt = function(x) return 1 / math.sqrt(x) end,
      sigmoid = function(x) return 1 / (1 + math.exp(-x)) end,
   }
   -- the unary ops of the op tables (their TH names are torch7's), and torch7's round
   local unaryOps = { 'round' }
   for _, op in ipairs(C.unaryOps) do unaryOps[#unaryOps + 1] = op end
   for _, op in ipairs(unaryOps) do
      if f[op] then def(op, { c = op, OUT, SRC }, { call = numberForms[op], N }) end
   end

   -- comparisons: a new ByteTensor, or a given result of either ByteTensor or this type
   for _, op in ipairs({ 'lt', 'le', 'gt', 'ge', 'eq', 'ne' }) do
      def(op, { c = op .. 'Value', NEWB, T, N }, { c = op .. 'ValueT', RES, T, N },
              { c = op .. 'Tensor', NEWB, T, T }, { c = op .. 'TensorT', RES, T, T })
   end
   def('all', { c = 'all', T })
   def('any', { c = 'any', T })

   -- reductions: a number over all elements, or a tensor keeping the reduced dimension
   def('sum', { c = 'sumall', T }, { c = 'sum', NEW, T, dim(2) })
   def('prod', { c = 'prodall', T }, { c = 'prod', NEW, T, dim(2) })
   def('mean', { c = 'meanall', T }, { c = 'mean', NEW, T, dim(2) })
   def('var', { c = 'varall', T, opt('b', false) }, { c = 'var', NEW, T, dim(2), opt('b', false) })
   def('std', { c = 'stdall', T, opt('b', false) }, { c = 'std', NEW, T, dim(2), opt('b', false) })
   def('norm', { c = 'normall', T, opt('n', 2) }, { c = 'norm', NEW, T, N, dim(2) })
   def('renorm', { c = 'renorm', OUT, SRC, N, dim(2), N })
   def('dist', { c = 'dist', T, T, opt('n', 2) })
   def('trace', { c = 'trace', T })
   def('cumsum', { c = 'cumsum', NEW, T, dim(2, 1) })
   def('cumprod', { c = 'cumprod', NEW, T, dim(2, 1) })
   def('max', { c = 'maxall', T }, { c = 'max', NEW, NEWL, T, dim(3) })
   def('min', { c = 'minall', T }, { c = 'min', NEW, NEWL, T, dim(3) })
   def('median', { c = 'median', NEW, NEWL, T, dim(3, 'last') })
   def('mode', { c = 'mode', NEW, NEWL, T, dim(3, 'last') })
   def('kthvalue', { c = 'kthvalue', NEW, NEWL, T, N, dim(3, 'last') })
   def('sort', { c = 'sort', NEW, NEWL, T, dim(3, 'last'), opt('b', false) })
   -- topk(k, dim, dir, sort): dir true takes the largest; sort true orders them
   def('topk', { c = 'topk', NEW, NEWL, T, opt('n', 1), dim(3, 'last'), opt('b', false), opt('b', false) })

   -- construction and structure
   def('eye', { c = 'eye', OUT, N, opt('n', 0) })
   def('range', { c = 'range', OUT, N, N, opt('n', 1) })
   def('linspace', { c = 'linspace', OUT, N, N, opt('n', 100) })
   def('logspace', { c = 'logspace', OUT, N, N, opt('n', 100) })
   def('randperm', { c = 'randperm', OUT, N })
   def('diag', { c = 'diag', NEW, T, opt('n', 0) })
   def('tril', { c = 'tril', NEW, T, opt('n', 0) })
   def('triu', { c = 'triu', NEW, T, opt('n', 0) })
   def('cross', { c = 'cross', NEW, T, T, opt('n', 0) })
   def('histc', { c = 'histc', NEW, T, opt('n', 100), opt('n', 0), opt('n', 0) })
   -- bhistc: histc of each row of a matrix, over one range (the whole matrix's when min = max)
   if f.histc then
      local function bhistc(r, t, nbins, lo, hi)
         if t:dim() ~= 2 then error('bhistc: a matrix expected, got ' .. t:dim() .. ' dimensions', 0) end
         if lo == hi then lo, hi = f.minall(t), f.maxall(t) end
         if lo == hi then lo, hi = lo - 1, hi + 1 end
         r:resize(t:size(1), nbins)
         for i = 1, t:size(1) do f.histc(r[i], t[i], nbins, lo, hi) end
         return r
      end
      def('bhistc', { call = bhistc, NEW, T, opt('n', 100), opt('n', 0), opt('n', 0) })
   end
   def('nonzero', { c = 'nonzero', NEWL, T })
   -- cat: empty tensors are skipped; the last dimension by default
   local function cat(r, list, d)
      local parts = {}
      for i, t in ipairs(list) do
         if torch.typename(t) ~= name then
            error(string.format('cat: tensor %d is a %s, %s expected', i, torch.type(t), name), 0)
         end
         if t:nElement() > 0 then parts[#parts + 1] = t end
      end
      if #list == 0 then error('cat: at least one tensor expected', 0) end
      if #parts == 0 then return r:resize(0) end
      if d == -1 then d = parts[1]:dim() end
      if d ~= math.floor(d) or d < 1 or d > parts[1]:dim() then
         error(string.format('cat: dimension %s is out of range for %dD tensors', tostring(d), parts[1]:dim()), 0)
      end
      f.catArray(r, parts, d)
      return r
   end
   def('cat', { call = function(r, a, b, d) return cat(r, { a, b }, d) end, NEW, T, T, opt('n', -1) },
              { call = cat, NEW, { 'list' }, opt('n', -1) })

   -- conv2/conv3: convolutions, xcorr2/xcorr3: cross-correlations, 'V'alid or 'F'ull
   for nd = 2, 3 do
      def('conv' .. nd, { c = 'conv', NEW, T, T, hidden(nd), { 'b', hidden = true }, opt('s', 'V', { 'V', 'F' }) })
      def('xcorr' .. nd, { c = 'conv', NEW, T, T, hidden(nd), { 'b', hidden = false }, opt('s', 'V', { 'V', 'F' }) })
   end
   -- matrix products; addmm & co. take torch7's optional factors: torch.addmm([res,]
   -- [beta,] M, [alpha,] m1, m2); methods M:addmm([alpha,] m1, m2), r:addmm([beta,] M,
   -- [alpha,] m1, m2) with M:addmm(beta, alpha, m1, m2) as well
   def('dot', { c = 'dot', T, T })
   for _, op in ipairs({ 'mv', 'mm', 'bmm', 'ger' }) do def(op, { c = op, OUT, T, T }) end
   for _, op in ipairs({ 'addmv', 'addmm', 'addr', 'addbmm', 'baddbmm' }) do
      def(op, { c = op, only = 'fn', NEW, opt('n', 1), T, opt('n', 1), T, T },
              { c = op, only = 'method', RES, hidden(1), SRC, opt('n', 1), T, T },
              { c = op, only = 'method', RES, N, SRC, N, T, T })
   end

   -- index and mask functions (1-based LongTensor indices, ByteTensor masks)
   def('index', { c = 'indexSelect', NEW, T, dim(2), L })
   def('indexSelect', { c = 'indexSelect', NEW, T, dim(2), L })
   def('gather', { c = 'gather', NEW, T, dim(2), L })
   def('scatter', { c = 'scatter', RES, dim(1), L, T }, { c = 'scatter', RES, dim(1), L, N })
   def('maskedSelect', { c = 'maskedSelect', NEW, T, B })
   defMethod('indexCopy', { c = 'indexCopy', RES, dim(1), L, T })
   defMethod('indexAdd', { c = 'indexAdd', RES, dim(1), L, T })
   defMethod('indexFill', { c = 'indexFill', RES, dim(1), L, N })
   defMethod('maskedFill', { c = 'maskedFill', RES, B, N })
   defMethod('maskedCopy', { c = 'maskedCopy', RES, B, T })

   -- random: tensors are filled in place; without a tensor, torch.fn returns a number.
   -- random(): torch7's range for the type; random(b): 1..b; random(a, b): a..b.
   local function randomUpTo(b)
      if b < 1 then error('random: the upper bound must be at least 1', 0) end
      return C.random() % b + 1
   end
   local function randomIn(a, b)
      if b < a then error('random: the upper bound must not be below the lower bound', 0) end
      return C.random() % (b + 1 - a) + a
   end
   def('random', { c = 'random', RES },
                 { call = function(t, b) return f.clampedRandom(t, 1, b + 1) end, RES, N },
                 { call = function(t, a, b) return f.clampedRandom(t, a, b + 1) end, RES, N, N },
                 { call = C.random }, { call = randomUpTo, N }, { call = randomIn, N, N })
   def('geometric', { c = 'geometric', RES, N }, { call = C.geometric, N })
   def('bernoulli', { c = 'bernoulli', RES, opt('n', 0.5) }, { c = 'bernoulliTensor', RES, { 'P' } },
                    { call = C.bernoulli, opt('n', 0.5) })
   def('uniform', { c = 'uniform', RES, opt('n', 0), opt('n', 1) }, { call = C.uniform, opt('n', 0), opt('n', 1) })
   def('normal', { c = 'normal', RES, opt('n', 0), opt('n', 1) }, { call = C.normal, opt('n', 0), opt('n', 1) })
   def('exponential', { c = 'exponential', RES, opt('n', 1) }, { call = C.exponential, opt('n', 1) })
   def('cauchy', { c = 'cauchy', RES, opt('n', 0), opt('n', 1) }, { call = C.cauchy, opt('n', 0), opt('n', 1) })
   def('logNormal', { c = 'logNormal', RES, opt('n', 1), opt('n', 2) }, { call = C.logNormal, opt('n', 1), opt('n', 2) })
   def('multinomial', { c = 'multinomial', NEWL, T, N, opt('b', false) })

   -- linear algebra (Float, Double): the results are given all together or not at all
   local UL, NV = { 'U', 'L' }, { 'N', 'V' }
   local function both(c, ...)
      local given, fresh = { c = c }, { c = c }
      local n = 0
      for _, s in ipairs({ ... }) do
         n = n + 1
         given[n] = s == FRESH and RES or s
         fresh[n] = s
      end
      return given, fresh
   end
   -- Note [Column-major LAPACK results]: torch7 hands LAPACK's matrices back as LAPACK
   -- wrote them, column-major (the transpose of a contiguous tensor), and turns a contiguous
   -- matrix given for a result into such a view of its own storage; code (and torch7's
   -- tests) tell a result by its strides. The results at positions `cols` are laid out so.
   local function columnMajor(r)
      if r:dim() == 2 and r:size(1) > 1 and r:size(2) > 1 and r:isContiguous() then
         local values = r:clone()
         r:set(r:storage(), r:storageOffset(), r:size(), torch.LongStorage({ 1, r:size(1) }))
         r:copy(values)
      end
   end
   local function lapack(cols, given, fresh)
      local fn = f[given.c]
      local function call(...)
         fn(...)
         local args = { ... }
         for _, i in ipairs(cols) do columnMajor(args[i]) end
      end
      given.call, fresh.call = call, call
      return given, fresh
   end
   if f.gesv then
      def('gesv', lapack({ 1, 2 }, both('gesv', FRESH, FRESH, T, T)))
      def('gels', lapack({ 1, 2 }, both('gels', FRESH, FRESH, T, T)))
      def('inverse', lapack({ 1 }, both('getri', FRESH, T)))
      def('potrf', lapack({ 1 }, both('potrf', FRESH, T, opt('s', 'U', UL))))
      def('potrs', lapack({ 1 }, both('potrs', FRESH, T, T, opt('s', 'U', UL))))
      def('potri', lapack({ 1 }, both('potri', FRESH, T, opt('s', 'U', UL))))
      def('symeig', lapack({ 2 }, both('syev', FRESH, FRESH, T, opt('s', 'N', NV), opt('s', 'U', UL))))
      def('eig', lapack({ 2 }, both('geev', FRESH, FRESH, T, opt('s', 'N', NV))))
      def('svd', lapack({ 1, 3 }, both('gesvd', FRESH, FRESH, FRESH, T, opt('s', 'S', { 'A', 'S' }))))
      def('qr', lapack({ 1, 2 }, both('qr', FRESH, FRESH, T)))
      -- qr's two halves and Q applied without forming it (torch7's test_qr.lua)
      def('geqrf', lapack({ 1 }, both('geqrf', FRESH, FRESH, T)))
      def('orgqr', lapack({ 1 }, both('orgqr', FRESH, T, T)))
      def('ormqr', lapack({ 1 }, both('ormqr', FRESH, T, T, T, opt('s', 'L', { 'L', 'R' }), opt('s', 'N', { 'N', 'T' }))))
      -- pstrf([u, piv,] a[, uplo[, tol]]): piv an IntTensor of 1-based pivots
      local function pstrfVariant(u, piv)
         local v = { c = 'pstrf', u, piv, T, opt('s', 'U', UL), opt('n', -1) }
         return v
      end
      local pg = pstrfVariant(RES, { 'Int', ret = true })
      local pf = pstrfVariant(FRESH, { 'Int', fresh = true, ret = true })
      def('pstrf', lapack({ 1 }, pg, pf))
      -- multinomialAliasSetup(probs[, state]) -> state {J, q}; multinomialAlias(output, state)
      m.multinomialAliasSetup = function(probs, state)
         if type(state) ~= 'table' then state = { torch.LongTensor(), f.new(nil, 1) } end
         f.multinomialAliasSetup(probs, state[1], state[2])
         return state
      end
      -- TH has no trtrs: the triangle (unit diagonal for 'U'), transposed for 'T', through gesv
      local function trtrs(rb, ra, b, a, uplo, trans, diag)
         if a:dim() ~= 2 or a:size(1) ~= a:size(2) then error('trtrs: a square matrix expected', 0) end
         local tri = uplo == 'U' and a:triu() or a:tril()
         if diag == 'U' then
            for i = 1, a:size(1) do tri[i][i] = 1 end
         end
         if trans == 'T' then tri = tri:t():contiguous() end
         f.gesv(rb, f.new(nil, 1), b, tri)
         ra:resizeAs(a):copy(a)
      end
      local trtrsGiven, trtrsFresh = both('trtrs', FRESH, FRESH, T, T, opt('s', 'U', UL), opt('s', 'N', { 'N', 'T' }),
                                          opt('s', 'N', { 'N', 'U' }))
      trtrsGiven.call, trtrsFresh.call = trtrs, trtrs
      def('trtrs', trtrsGiven, trtrsFresh)
   end

   -- by hand: sizes as numbers or a LongStorage
   local function resized(fill)
      return function(self, ...)
         self:resize(torch._sizesOf(...))
         return fill(self)
      end
   end
   m.zeros = resized(function(t) return t:zero() end)
   m.ones = resized(function(t) return t:fill(1) end)
   if f.uniform then
      m.rand = resized(function(t) return t:uniform(0, 1) end)
      m.randn = resized(function(t) return t:normal(0, 1) end)
   end
   -- reshape([res,] src, sizes): a contiguous copy with new sizes; x:reshape(sizes) is new
   function m.reshape(a, b, ...)
      local res, src, sizes
      if isTensor(b) then res, src, sizes = a, b, torch._sizesOf(...)
      else res, src, sizes = f.new(nil, 1), a, torch._sizesOf(b, ...) end
      local n = 1
      for i = 1, #sizes do n = n * sizes[i] end
      if n ~= src:nElement() then
         error(string.format('reshape: %d elements cannot take sizes %s', src:nElement(),
                             table.concat(sizes:totable(), 'x')), 2)
      end
      res:resize(sizes):copy(src)
      return res
   end
   function m.numel(self) return self:nElement() end
   function m.equal(self, other)
      return torch.typename(other) == name and f.equal(self, other)
   end

   -- operators make new tensors
   local mt = torch._metatables[name]
   mt.__add = function(a, b)
      if isTensor(a) then return a:clone():add(b) end
      return b:clone():add(a)
   end
   mt.__sub = function(a, b)
      if isTensor(a) and isTensor(b) then return a:clone():add(-1, b) end
      if isTensor(a) then return a:clone():add(-b) end
      return b:clone():mul(-1):add(a)
   end
   mt.__unm = function(a) return a:clone():mul(-1) end
   mt.__mul = function(a, b)
      if not isTensor(a) then return b:clone():mul(a) end
      if not isTensor(b) then return a:clone():mul(b) end
      if a:dim() == 1 and b:dim() == 1 then return a:dot(b) end
      if a:dim() == 2 and b:dim() == 1 then return torch.mv(a, b) end
      if a:dim() == 2 and b:dim() == 2 then return torch.mm(a, b) end
      error(string.format('multiplication between %dD and %dD tensors not supported', a:dim(), b:dim()), 2)
   end
   mt.__div = function(a, b)
      if not (isTensor(a) and type(b) == 'number') then error('division of a tensor by a number only', 2) end
      return a:clone():div(b)
   end
   mt.__mod = function(a, b)
      if not (isTensor(a) and type(b) == 'number') then error('modulo of a tensor by a number only', 2) end
      return a:clone():remainder(b)
   end
end

for _, TN in ipairs(torch.types) do torch._defineTensorMath(TN, C[TN]) end

-- torch.fn: the element types of the tensor arguments are tried in order (then that of the
-- first element of a table of tensors, then the default type): torch7 took the first
-- one, which also serves `torch.lt(byteResult, a, b)` and `torch.nonzero(longResult, t)`.
local function candidates(args, n)
   local names, seen = {}, {}
   local function add(x)
      local tname = torch.typename(x)
      if tname and typeFunctions[tname] and not seen[tname] then seen[tname] = true; names[#names + 1] = tname end
   end
   for i = 1, n do add(args[i]) end
   if isPlainTable(args[1]) then add(args[1][1]) end
   add(torch.Tensor())
   return names
end
for fname in pairs(declared) do
   torch[fname] = function(...)
      local n = select('#', ...)
      while n > 0 and select(n, ...) == nil do n = n - 1 end
      local args = { ... }
      local first
      for _, tname in ipairs(candidates(args, n)) do
         local d = typeFunctions[tname][fname]
         if d then
            local p = d.find(args, n)
            if p then return d.call(p, args) end
            first = first or d
         end
      end
      if not first then error(string.format('%s has no torch.%s', candidates(args, n)[1], fname), 2) end
      first.usageError(args, n, 3)
   end
end

-- torch.zeros([res,] sizes) and friends: of the default type unless res is given
for _, fname in ipairs({ 'zeros', 'ones', 'rand', 'randn' }) do
   torch[fname] = function(res, ...)
      if isTensor(res) then return res[fname](res, ...) end
      local t = torch.Tensor()
      return t[fname](t, res, ...)
   end
end
function torch.reshape(a, ...) return a:reshape(...) end
function torch.multinomialAliasSetup(probs, state)
   if not probs.multinomialAliasSetup then error('multinomialAliasSetup: a FloatTensor or DoubleTensor expected', 2) end
   return probs:multinomialAliasSetup(state)
end
-- multinomialAlias(output, state): output (a LongTensor of any shape) filled with draws
function torch.multinomialAlias(output, state)
   C[torch.typename(state[2]):match('^torch%.(%a+)Tensor$')].multinomialAliasDraw(output, state[1], state[2])
   return output
end
function torch.numel(a) return a:nElement() end
function torch.equal(a, b) return a:equal(b) end
