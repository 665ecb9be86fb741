-- nn.Profile(module[, print_interval = 100[, name]]): a decorator that times the module's
-- forward and backward passes and prints their mean time every print_interval calls.
local Profile, parent = torch.class('nn.Profile', 'nn.Decorator')

function Profile:__init(module, print_interval, name)
   parent.__init(self, module)
   self.print_interval = print_interval or 100
   self.name = name or torch.type(module)
   self.timer = torch.Timer()
   self:resetTimes()
end

function Profile:resetTimes()
   self.forwardTime, self.backwardTime = 0, 0
   self.forwardCount, self.backwardCount = 0, 0
   self.summedForwardTime, self.summedBackwardTime = 0, 0
end

function Profile:updateOutput(input)
   local start = self.timer:time().real
   self.output = self.modules[1]:forward(input)
   self.forwardTime = self.timer:time().real - start
   self.summedForwardTime = self.summedForwardTime + self.forwardTime
   self.forwardCount = self.forwardCount + 1
   if self.forwardCount % self.print_interval == 0 then
      print(string.format('%s took %.4f seconds per forward (mean of %d)', self.name,
                          self.summedForwardTime / self.print_interval, self.print_interval))
      self.summedForwardTime = 0
   end
   return self.output
end

function Profile:backward(input, gradOutput, scale)
   local start = self.timer:time().real
   self.gradInput = self.modules[1]:backward(input, gradOutput, scale)
   self.backwardTime = self.timer:time().real - start
   self.summedBackwardTime = self.summedBackwardTime + self.backwardTime
   self.backwardCount = self.backwardCount + 1
   if self.backwardCount % self.print_interval == 0 then
      print(string.format('%s took %.4f seconds per backward (mean of %d)', self.name,
                          self.summedBackwardTime / self.print_interval, self.print_interval))
      self.summedBackwardTime = 0
   end
   return self.gradInput
end
