-- Heap tracking (Note [Heap tracking] in lua/csrc/common.h): Lua's collector counts only a
-- tensor's small userdata, so without being told about TH's memory a loop that drops a fresh
-- 1 MB tensor at each turn grows by 1 MB a turn. The resident size comes from the kernel
-- (/proc/self/statm), an independent account of the memory the process holds.
local tests = {}

local PAGE = 4096
local MB = 2 ^ 20

local function rss()
   local f = assert(io.open('/proc/self/statm'))
   local resident = f:read('*a'):match('^%d+%s+(%d+)')
   f:close()
   return tonumber(resident) * PAGE
end

-- Runs n turns that each make and drop a filled 1 MB tensor; returns the largest growth of
-- the resident size seen, stopping early once it passes limit (so that a failure does not
-- take the machine's memory).
local function dropTensors(n, limit)
   collectgarbage()
   collectgarbage()
   local base, peak = rss(), 0
   for i = 1, n do
      local t = torch.DoubleTensor(MB / 8):fill(i)  -- filled: its pages are resident
      check.eq(t[1], i)
      if i % 10 == 0 then
         peak = math.max(peak, rss() - base)
         if peak > limit then break end
      end
   end
   return peak
end

function tests.setheaptracking_as_torch7()
   check.eq(torch._heaptracking, true, 'on by default')
   torch.setheaptracking(false)
   check.eq(torch._heaptracking, false)
   torch.setheaptracking(true)
   check.eq(torch._heaptracking, true)
   check.raises(function() torch.setheaptracking('yes') end, 'a boolean expected')
end

function tests.heapsize_counts_th_memory()
   collectgarbage()
   local before = torch._C.heapsize()
   local t = torch.DoubleTensor(MB / 8)
   local grown = torch._C.heapsize() - before
   check.ok(grown >= MB and grown < MB + 64 * 1024, 'a 1 MB tensor adds 1 MB: ' .. grown)
   t = nil
   collectgarbage()
   check.ok(torch._C.heapsize() - before < 64 * 1024, 'and frees it when collected')
end

function tests.dropped_tensors_are_collected()
   local growth = dropTensors(3000, 200 * MB)
   check.ok(growth < 200 * MB, string.format('3000 dropped 1 MB tensors: the resident size grew by %.0f MB', growth / MB))
end

function tests.without_tracking_memory_grows()
   -- the same loop with tracking off keeps its tensors until the collector happens to run:
   -- the measure above is what tracking does, not the loop's nature. (Counted by TH here: the
   -- resident size may not grow at first, as malloc reuses what earlier tests freed.)
   collectgarbage()
   local base = torch._C.heapsize()
   torch.setheaptracking(false)
   local ok, err = pcall(function()
      for i = 1, 150 do
         local _ = torch.DoubleTensor(MB / 8):fill(i)
      end
   end)
   local held = torch._C.heapsize() - base
   torch.setheaptracking(true)
   collectgarbage()
   check.ok(ok, err)
   check.ok(held > 140 * MB, string.format('150 dropped 1 MB tensors untracked: TH holds %.0f MB', held / MB))
   check.ok(torch._C.heapsize() - base < MB, 'and frees them once the collector runs')
end

function tests.live_tensors_raise_the_threshold()
   -- memory that stays alive does not make every allocation collect: with 150 MB kept,
   -- the next collection waits for the heap to double
   local kept = {}
   for i = 1, 150 do kept[i] = torch.DoubleTensor(MB / 8):fill(1) end
   local collections = 0
   local sentinel = setmetatable({}, { __mode = 'k' })
   local function watch() sentinel[{}] = true end
   watch()
   for _ = 1, 50 do
      local _ = torch.DoubleTensor(MB / 8):fill(2)
      if next(sentinel) == nil then
         collections = collections + 1
         watch()
      end
   end
   check.ok(collections <= 1, collections .. ' collections in 50 turns with 150 MB alive')
   kept = nil
   collectgarbage()
end

return tests
