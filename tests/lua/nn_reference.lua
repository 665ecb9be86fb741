-- Convolutions by their definition, over any number D of spatial dimensions, for the nn
-- suites (loaded with dofile from the same folder). x is one sample, nInputPlane x S1 x ..
-- x SD; d, pad, adj and dil list one number per spatial dimension, in the order of the
-- sizes (T, H, W); dil defaults to ones; a nil bias adds nothing.
--   reference.convolution(x, weight, bias, d, pad[, dil]): weight nOut x nIn x k1 x .. x kD;
--     out[o][p] = bias[o] + sum_{i, a} weight[o][i][a] x[i][(p - 1) d - pad + (a - 1) dil + 1]
--     (x is zero outside);
--   reference.fullConvolution(x, weight, bias, d, pad, adj[, dil]): the transposed one,
--     weight nIn x nOut x k1 x .. x kD; x[i][q] weight[i][o][a] goes to
--     out[o][(q - 1) d - pad + (a - 1) dil + 1], each output size being
--     (S - 1) d - 2 pad + (k - 1) dil + 1 + adj.
local reference = {}

-- calls f(index) for every index (a table, 1-based) of a block of the given sizes
local function forEach(sizes, f)
   local index = {}
   local function loop(dim)
      if dim > #sizes then return f(index) end
      for i = 1, sizes[dim] do
         index[dim] = i
         loop(dim + 1)
      end
   end
   loop(1)
end

local function ones(n)
   local t = {}
   for i = 1, n do t[i] = 1 end
   return t
end

-- the list a followed by the list b: a tensor index
local function cat(a, b)
   local t = {}
   for i = 1, #a do t[i] = a[i] end
   for i = 1, #b do t[#a + i] = b[i] end
   return t
end

-- position p of the output (or q of the input) and tap a of the kernel: the input (or output)
-- position (p - 1) d - pad + (a - 1) dil + 1, or nil outside sizes
local function tapped(p, a, d, pad, dil, sizes)
   local at = {}
   for i = 1, #p do
      at[i] = (p[i] - 1) * d[i] - pad[i] + (a[i] - 1) * dil[i] + 1
      if at[i] < 1 or at[i] > sizes[i] then return nil end
   end
   return at
end

function reference.convolution(x, weight, bias, d, pad, dil)
   local w = weight:size():totable()
   local nOut, nIn, k = w[1], w[2], { unpack(w, 3) }
   dil = dil or ones(#k)
   local inSizes, outSizes = { unpack(x:size():totable(), 2) }, {}
   for i = 1, #k do
      outSizes[i] = math.floor((inSizes[i] + 2 * pad[i] - (dil[i] * (k[i] - 1) + 1)) / d[i]) + 1
   end
   local out = torch.Tensor(torch.LongStorage(cat({ nOut }, outSizes)))
   for o = 1, nOut do
      forEach(outSizes, function(p)
         local s = bias and bias[o] or 0
         for i = 1, nIn do
            forEach(k, function(a)
               local at = tapped(p, a, d, pad, dil, inSizes)
               if at then s = s + weight[cat({ o, i }, a)] * x[cat({ i }, at)] end
            end)
         end
         out[cat({ o }, p)] = s
      end)
   end
   return out
end

function reference.fullConvolution(x, weight, bias, d, pad, adj, dil)
   local w = weight:size():totable()
   local nIn, nOut, k = w[1], w[2], { unpack(w, 3) }
   dil = dil or ones(#k)
   local inSizes, outSizes = { unpack(x:size():totable(), 2) }, {}
   for i = 1, #k do
      outSizes[i] = (inSizes[i] - 1) * d[i] - 2 * pad[i] + dil[i] * (k[i] - 1) + 1 + adj[i]
   end
   local out = torch.Tensor(torch.LongStorage(cat({ nOut }, outSizes)))
   for o = 1, nOut do out[o]:fill(bias and bias[o] or 0) end
   for i = 1, nIn do
      forEach(inSizes, function(q)
         for o = 1, nOut do
            forEach(k, function(a)
               local at = tapped(q, a, d, pad, dil, outSizes)
               if at then
                  local index = cat({ o }, at)
                  out[index] = out[index] + x[cat({ i }, q)] * weight[cat({ i, o }, a)]
               end
            end)
         end
      end)
   end
   return out
end

return reference
