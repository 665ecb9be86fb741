-- optim.ConfusionMatrix(nclasses | classes[, classes]): counts of (target, prediction)
-- pairs, torch7's class: mat[target][prediction] (a LongTensor), per-class accuracies
-- valids, intersection-over-union unionvalids, totalValid and averageValid after
-- updateValids() (which tostring calls). Targets <= 0 are missing and not counted.
--   conf = optim.ConfusionMatrix({'cat', 'dog'})
--   conf:add(prediction, target)        -- numbers, or a score vector and a class / one-hot
--   conf:batchAdd(predictions, targets) -- class vectors or score matrices
--   print(conf)
-- render() (an image through qtwidget) is not provided.
local ConfusionMatrix = torch.class('optim.ConfusionMatrix')

function ConfusionMatrix:__init(nclasses, classes)
   if type(nclasses) == 'table' then
      classes = nclasses
      nclasses = #classes
   end
   assert(type(nclasses) == 'number' and nclasses >= 1,
          'optim.ConfusionMatrix: a number of classes or a table of class names expected')
   self.mat = torch.LongTensor(nclasses, nclasses):zero()
   self.valids = torch.FloatTensor(nclasses):zero()
   self.unionvalids = torch.FloatTensor(nclasses):zero()
   self.nclasses = nclasses
   self.totalValid = 0
   self.averageValid = 0
   self.classes = classes or {}
end

-- the class of a score vector: the 1-based position of its (first) maximum
local function argmax(v)
   local _, idx = v:max(1)
   return idx[1]
end

function ConfusionMatrix:_add(p, t)
   assert(type(p) == 'number', 'ConfusionMatrix: prediction must be a class number')
   assert(type(t) == 'number', 'ConfusionMatrix: target must be a class number')
   if t > 0 then
      if p < 1 or p > self.nclasses or t > self.nclasses or p % 1 ~= 0 or t % 1 ~= 0 then
         error(string.format('ConfusionMatrix: class (prediction %s, target %s) out of range 1..%d',
                             tostring(p), tostring(t), self.nclasses), 3)
      end
      self.mat[t][p] = self.mat[t][p] + 1
   end
end

function ConfusionMatrix:add(prediction, target)
   if type(prediction) == 'number' then
      self:_add(prediction, target)
      return
   end
   assert(prediction:dim() == 1, 'ConfusionMatrix:add: prediction must be a number or a vector of scores')
   if type(target) == 'number' then
      self:_add(argmax(prediction), target)
   else
      assert(target:dim() == 1, 'ConfusionMatrix:add: target must be a number or a one-hot vector')
      self:_add(argmax(prediction), argmax(target))
   end
end

-- The class numbers of a batch: a vector of classes, an N x 1 matrix of them, or an
-- N x nclasses matrix of scores (or one-hot rows).
local function classesOf(t, what)
   if t:dim() == 1 then
      return t
   elseif t:dim() == 2 then
      if t:size(2) == 1 then return t:select(2, 1) end
      local _, idx = t:max(2)
      return idx:select(2, 1)
   end
   error(what .. ' has invalid number of dimensions', 3)
end

function ConfusionMatrix:batchAdd(predictions, targets)
   local preds = classesOf(predictions, 'predictions')
   local targs = classesOf(targets, 'targets')
   assert(preds:size(1) == targs:size(1), 'ConfusionMatrix:batchAdd: as many predictions as targets expected')
   for i = 1, preds:size(1) do
      self:_add(preds[i], targs[i])
   end
end

function ConfusionMatrix:zero()
   self.mat:zero()
   self.valids:zero()
   self.unionvalids:zero()
   self.totalValid = 0
   self.averageValid = 0
end

local function isNaN(number)
   return number ~= number
end

function ConfusionMatrix:updateValids()
   local total = 0
   for t = 1, self.nclasses do
      local hits = self.mat[t][t]
      self.valids[t] = hits / self.mat:select(1, t):sum()
      self.unionvalids[t] = hits / (self.mat:select(1, t):sum() + self.mat:select(2, t):sum() - hits)
      total = total + hits
   end
   self.totalValid = total / self.mat:sum()
   self.averageValid = 0
   self.averageUnionValid = 0
   local nvalids, nunionvalids = 0, 0
   for t = 1, self.nclasses do
      if not isNaN(self.valids[t]) then
         self.averageValid = self.averageValid + self.valids[t]
         nvalids = nvalids + 1
      end
      if not isNaN(self.valids[t]) and not isNaN(self.unionvalids[t]) then
         self.averageUnionValid = self.averageUnionValid + self.unionvalids[t]
         nunionvalids = nunionvalids + 1
      end
   end
   self.averageValid = self.averageValid / nvalids
   self.averageUnionValid = self.averageUnionValid / nunionvalids
end

function ConfusionMatrix:__tostring__()
   self:updateValids()
   local str = { 'ConfusionMatrix:\n' }
   local nclasses = self.nclasses
   table.insert(str, '[')
   local maxCnt = self.mat:max()
   local nDigits = math.max(8, 1 + math.ceil(math.log10(maxCnt)))
   for t = 1, nclasses do
      local pclass = string.format('%2.3f', self.valids[t] * 100)
      table.insert(str, t == 1 and '[' or ' [')
      for p = 1, nclasses do
         table.insert(str, string.format('%' .. nDigits .. 'd', self.mat[t][p]))
      end
      local close = t == nclasses and ']]  ' or ']   '
      if self.classes and self.classes[1] then
         table.insert(str, close .. pclass .. '% \t[class: ' .. (self.classes[t] or '') .. ']\n')
      else
         table.insert(str, close .. pclass .. '% \n')
      end
   end
   table.insert(str, ' + average row correct: ' .. (self.averageValid * 100) .. '% \n')
   table.insert(str, ' + average rowUcol correct (VOC measure): ' .. (self.averageUnionValid * 100) .. '% \n')
   table.insert(str, ' + global correct: ' .. (self.totalValid * 100) .. '%')
   return table.concat(str)
end
