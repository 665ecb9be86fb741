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
--   reference.volumetricMaxPool(x, k, d[, pad[, dil]]): max pooling's maxima and indices.
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

-- max pooling of x (C x T x H x W) over windows k (kT, kH, kW) every d, the volume padded by
-- pad (ignored: no maximum there) and the windows dilated by dil (default zeros and ones):
-- the maxima and the 1-based flat offset t*H*W + h*W + w of each (the first, in ties) in its
-- volume
function reference.volumetricMaxPool(x, k, d, pad, dil)
   pad, dil = pad or { 0, 0, 0 }, dil or ones(3)
   local C, T, H, W = unpack(x:size():totable())
   local sizes, inSizes = {}, { T, H, W }
   for i = 1, 3 do
      sizes[i] = math.floor((inSizes[i] + 2 * pad[i] - dil[i] * (k[i] - 1) - 1) / d[i]) + 1
   end
   local out = torch.Tensor(C, sizes[1], sizes[2], sizes[3])
   local idx = torch.LongTensor(C, sizes[1], sizes[2], sizes[3])
   for c = 1, C do
      for ot = 1, sizes[1] do
         for oh = 1, sizes[2] do
            for ow = 1, sizes[3] do
               local best, where = -math.huge, nil
               for a = 1, k[1] do
                  for b = 1, k[2] do
                     for e = 1, k[3] do
                        local t = (ot - 1) * d[1] - pad[1] + (a - 1) * dil[1] + 1
                        local h = (oh - 1) * d[2] - pad[2] + (b - 1) * dil[2] + 1
                        local w = (ow - 1) * d[3] - pad[3] + (e - 1) * dil[3] + 1
                        if t >= 1 and t <= T and h >= 1 and h <= H and w >= 1 and w <= W and x[c][t][h][w] > best then
                           best, where = x[c][t][h][w], ((t - 1) * H + (h - 1)) * W + w
                        end
                     end
                  end
               end
               out[c][ot][oh][ow], idx[c][ot][oh][ow] = best, where
            end
         end
      end
   end
   return out, idx
end

return reference
