-- Misuse gives a Lua error with a clear message (never a crash) and leaves the tensors
-- unchanged.
local tests = {}

function tests.bad_arguments_raise()
   local t = torch.Tensor({ { 1, 2, 3 }, { 4, 5, 6 } })
   local before = t:clone()
   check.raises(function() return t:size(3) end, 'dimension out of range')
   check.raises(function() return t:select(1, 0) end, 'out of range')
   check.raises(function() return t:view(5) end, 'invalid')
   check.raises(function() return t:expand(4, 3) end, 'expand')
   check.raises(function() return t:unfold(2, 5, 1) end, 'larger')
   check.raises(function() return t:resize(-1) end, 'non-negative')
   check.raises(function() return t:max(3) end, 'dimension')
   check.raises(function() return t:copy(3) end, 'tensor expected')
   check.raises(function() return t:add(torch.DoubleStorage(2)) end)
   check.raises(function() t.foo = 1 end, 'cannot set field')
   check.raises(function() return torch.DoubleStorage(3)[4] end, 'out of bounds')
   check.raises(function() torch.DoubleStorage(3)[0] = 1 end, 'out of bounds')
   check.raises(function() return torch.Tensor():max() end, 'empty')
   check.raises(function() return torch.Tensor():sum(1) end, 'dimension')
   check.raises(function() return torch.IntTensor({ 1 }):div(0) end, 'division by zero')
   check.raises(function() return torch.Tensor(3):bernoulli(2) end, 'probability')
   check.ok(t:equal(before), 'failed calls leave the tensor unchanged')
end

function tests.bad_files_raise()
   check.raises(function() torch.load('/etc/hostname') end, 't7')
   check.raises(function() torch.deserialize('') end, 'truncated')
   local path = os.tmpname()
   torch.save(path, torch.Tensor(10):fill(1))
   local f = io.open(path, 'rb'); local bytes = f:read('*a'); f:close()
   check.raises(function() torch.deserialize(bytes:sub(1, #bytes - 9)) end)
   os.remove(path)
end

return tests
