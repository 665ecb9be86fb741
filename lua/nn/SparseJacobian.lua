-- nn.SparseJacobian: nn.Jacobian for modules whose input is sparse, nnz x 2 rows {feature
-- index, value} (nn.SparseLinear): the Jacobian with respect to the input runs over the
-- values (column 2) only. The functions with respect to parameters are nn.Jacobian's.
local Jacobian = nn.Jacobian
local SparseJacobian = {}
nn.SparseJacobian = SparseJacobian

-- The gradient of each input row's value, from {index, gradient} rows (one per input row,
-- or one per feature).
local function valueGradients(input, gradInput)
   local byIndex = {}
   for r = 1, gradInput:size(1) do byIndex[gradInput[r][1]] = gradInput[r][2] end
   local grads = torch.Tensor(input:size(1))
   for r = 1, input:size(1) do
      local g = byIndex[input[r][1]]
      if g == nil then error('nn.SparseJacobian: gradInput has no row for feature ' .. input[r][1], 5) end
      grads[r] = g
   end
   return grads
end

-- d output / d param by backpropagation; without param, d output / d (input values).
function SparseJacobian.backward(module, input, param, dparam)
   if param then return Jacobian.backward(module, input, param, dparam) end
   -- no tail calls: valueGradients' error names the caller of this function (level 5)
   local jacobian = Jacobian._byBackprop(module, input, input:size(1), function(din)
      -- torch7's reading of a tensor gradInput: row r's column 2 is the gradient of input
      -- row r's value (nn.PartialLinear); a table (nn.SparseLinear's, one {index, gradient}
      -- matrix per sample) is matched by feature index
      if torch.isTensor(din) then return din:select(2, 2) end
      local grads = valueGradients(input, din[1])
      return grads
   end, false)
   return jacobian
end

-- The same by central differences.
function SparseJacobian.forward(module, input, param, perturbation)
   if param then return Jacobian.forward(module, input, param, perturbation) end
   return Jacobian._byDifferences(module, input, input:select(2, 2), perturbation)
end

SparseJacobian.backwardUpdate = Jacobian.backwardUpdate
SparseJacobian.forwardUpdate = Jacobian.forwardUpdate
SparseJacobian.testIO = Jacobian.testIO
SparseJacobian.testAllUpdate = Jacobian.testAllUpdate
Jacobian._defineTests(SparseJacobian, function(input) return input:select(2, 2) end)

return SparseJacobian
