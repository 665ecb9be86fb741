-- tostring of tensors and storages, exactly as torch7's Tensor.lua prints them. The
-- expected texts follow torch7's rules by hand: with e(v) = floor(log10|v|) + 1 over the
-- largest and smallest magnitudes, integers print as %(e(max)+1)d (%11.4e past 9 digits);
-- other values as %11.4e when e(max) - e(min) > 4, else with 4 decimals, %(e(max)+6).4f,
-- or %7.4f under a "scale *" line of 10^(e(max)-1) when e(max) > 5 or < 0. A matrix prints
-- in blocks of floor((80 - indent) / (width + 1)) columns, rows one space further in under
-- a scale line; slices of higher dimensions print as "(i,.,.) = " matrices indented by one.
local tests = {}

-- n values of "%<width>d" joined by spaces
local function ints(first, last, width)
   local parts = {}
   for v = first, last do parts[#parts + 1] = string.format('%' .. width .. 'd', v) end
   return table.concat(parts, ' ')
end

function tests.integers()
   check.eq(tostring(torch.LongTensor({ { -10, 5 }, { 100, 0 } })),
            ' -10    5\n 100    0\n[torch.LongTensor of size 2x2]\n')
   check.eq(tostring(torch.ByteTensor({ 200, 3 })), ' 200\n   3\n[torch.ByteTensor of size 2]\n')
   check.eq(tostring(torch.Tensor({ 7 })), ' 7\n[torch.DoubleTensor of size 1]\n')
   check.eq(tostring(torch.LongTensor({ 12345678901 })), ' 1.2346e+10\n[torch.LongTensor of size 1]\n')
   check.eq(tostring(torch.Tensor({ 0, 0 })), ' 0\n 0\n[torch.DoubleTensor of size 2]\n')
end

function tests.decimals_and_scales()
   -- e(max) = 2: %8.4f
   check.eq(tostring(torch.Tensor({ 1.5, -22.25 })), '  1.5000\n-22.2500\n[torch.DoubleTensor of size 2]\n')
   -- e(max) = 0: %7.4f
   check.eq(tostring(torch.Tensor({ 0.5, 0.25 })), ' 0.5000\n 0.2500\n[torch.DoubleTensor of size 2]\n')
   -- e(max) = -2: scale 10^-3
   check.eq(tostring(torch.Tensor({ 0.001, 0.0025 })), '0.001 *\n 1.0000\n 2.5000\n[torch.DoubleTensor of size 2]\n')
   -- e(max) = 7: scale 10^6
   check.eq(tostring(torch.Tensor({ 1234567.5, 2000000 })),
            '1e+06 *\n 1.2346\n 2.0000\n[torch.DoubleTensor of size 2]\n')
   -- a matrix under a scale: rows one space in
   check.eq(tostring(torch.Tensor({ { 1e-5, 2e-5 }, { 3e-5, -4e-5 } })),
            '1e-05 *\n  1.0000  2.0000\n  3.0000 -4.0000\n[torch.DoubleTensor of size 2x2]\n')
end

function tests.mixed_magnitudes()
   -- e(max) - e(min) = 3 - (-2) > 4: %11.4e
   check.eq(tostring(torch.Tensor({ 1e-3, 123.5 })), ' 1.0000e-03\n 1.2350e+02\n[torch.DoubleTensor of size 2]\n')
   check.eq(tostring(torch.FloatTensor({ { 0.5, 250000 } })),
            ' 5.0000e-01  2.5000e+05\n[torch.FloatTensor of size 1x2]\n')
end

function tests.wide_matrices()
   -- 1..50 in 2 x 25: %3d, floor(80 / 4) = 20 columns a block
   local t = torch.range(1, 50):view(2, 25)
   local expected = 'Columns 1 to 20\n' .. ints(1, 20, 3) .. '\n' .. ints(26, 45, 3) .. '\n' ..
                    '\nColumns 21 to 25\n' .. ints(21, 25, 3) .. '\n' .. ints(46, 50, 3) .. '\n' ..
                    '[torch.DoubleTensor of size 2x25]\n'
   check.eq(tostring(t), expected)
   -- exactly 20 columns: one block, no header
   check.eq(tostring(torch.range(1, 20):view(1, 20)), ints(1, 20, 3) .. '\n[torch.DoubleTensor of size 1x20]\n')
   -- k / 10000, k = 1..25: scale 10^-3, %7.4f, floor(80 / 8) = 10 columns a block
   local s = torch.range(1, 25):div(10000):view(1, 25)
   local function block(first, last)
      local parts = {}
      for k = first, last do parts[#parts + 1] = string.format('%7.4f', k / 10) end
      return 'Columns ' .. first .. ' to ' .. last .. '\n0.001 *\n ' .. table.concat(parts, ' ') .. '\n'
   end
   check.eq(tostring(s), block(1, 10) .. '\n' .. block(11, 20) .. '\n' .. block(21, 25) ..
                         '[torch.DoubleTensor of size 1x25]\n')
end

function tests.slices_of_more_dimensions()
   check.eq(tostring(torch.range(1, 8):view(2, 2, 2)),
            '(1,.,.) = \n  1  2\n  3  4\n\n(2,.,.) = \n  5  6\n  7  8\n[torch.DoubleTensor of size 2x2x2]\n')
   check.eq(tostring(torch.range(1, 4):view(2, 1, 1, 2)),
            '(1,1,.,.) = \n  1  2\n\n(2,1,.,.) = \n  3  4\n[torch.DoubleTensor of size 2x1x1x2]\n')
   -- one format for all the slices, each under its scale line
   check.eq(tostring(torch.Tensor({ { { 0.001, 0.002 } }, { { 0.003, 0.004 } } })),
            '(1,.,.) = \n 0.001 *\n   1.0000  2.0000\n\n(2,.,.) = \n 0.001 *\n   3.0000  4.0000\n' ..
            '[torch.DoubleTensor of size 2x1x2]\n')
   -- with the indent, floor(79 / 4) = 19 columns a block; torch7 indents only the first header
   check.eq(tostring(torch.range(1, 25):view(1, 1, 25)),
            '(1,.,.) = \n Columns 1 to 19\n ' .. ints(1, 19, 3) .. '\n\nColumns 20 to 25\n ' .. ints(20, 25, 3) ..
            '\n[torch.DoubleTensor of size 1x1x25]\n')
end

function tests.empty_and_storages()
   check.eq(tostring(torch.Tensor()), '[torch.DoubleTensor with no dimension]\n')
   check.eq(tostring(torch.IntTensor()), '[torch.IntTensor with no dimension]\n')
   check.eq(tostring(torch.DoubleStorage({ 1, 2 })), '\n 1\n 2\n[torch.DoubleStorage of size 2]\n')
   check.eq(tostring(torch.FloatStorage({ 0.001, 0.0025 })),
            '\n0.001 *\n 1.0000\n 2.5000\n[torch.FloatStorage of size 2]\n')
   check.eq(tostring(torch.LongStorage()), '\n[torch.LongStorage of size 0]\n')
end

return tests
