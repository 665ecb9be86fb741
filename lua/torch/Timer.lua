-- torch.Timer: wall-clock, user and system time since it was made or reset, not counting
-- the spans it was stopped.
--   local timer = torch.Timer(); work(); print(timer:time().real)
local Timer = torch.class('torch.Timer')
local clock = torch._C.clock

local fields = { 'real', 'user', 'sys' }

function Timer:__init()
   self:reset()
end

-- Sets the times to 0; a running timer goes on running.
function Timer:reset()
   self.total = { real = 0, user = 0, sys = 0 }
   self.start = { clock() }
   self.running = self.running ~= false
   return self
end

function Timer:stop()
   if self.running then
      local now = { clock() }
      for i, k in ipairs(fields) do self.total[k] = self.total[k] + now[i] - self.start[i] end
      self.running = false
   end
   return self
end

function Timer:resume()
   if not self.running then
      self.start = { clock() }
      self.running = true
   end
   return self
end

-- {real =, user =, sys =} in seconds
function Timer:time()
   local t = { real = self.total.real, user = self.total.user, sys = self.total.sys }
   if self.running then
      local now = { clock() }
      for i, k in ipairs(fields) do t[k] = t[k] + now[i] - self.start[i] end
   end
   return t
end

-- torch.tic() -> wall-clock seconds now; torch.toc(t) -> seconds since t (torch7's pair)
function torch.tic()
   return (clock())
end

function torch.toc(t)
   return (clock()) - t
end
