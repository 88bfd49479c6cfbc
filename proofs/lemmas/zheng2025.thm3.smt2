; ID->DP per-triple lemma for zheng2025.thm3
; for all reals p, p' > 0, q, q' >= 0, a >= 1, 0 < s <= 1: p q <= a p' q' and p' q' <= a p q, s p' <= p, s p <= p' imply q/q' <= a^1 s^-1
; the assertions are the lemma's hypotheses and the negation of its goal: 'unsat' proves the lemma.
; z3 said: unsat
; benchmark generated from python API
(set-info :status unknown)
(set-logic ALL)
(declare-fun p () Real)
(declare-fun pp () Real)
(declare-fun q () Real)
(declare-fun qq () Real)
(declare-fun a () Real)
(declare-fun s () Real)
(assert
 (> p 0.0))
(assert
 (> pp 0.0))
(assert
 (>= q 0.0))
(assert
 (>= qq 0.0))
(assert
 (>= a 1.0))
(assert
 (> s 0.0))
(assert
 (<= s 1.0))
(assert
 (<= (* s pp) p))
(assert
 (<= (* s p) pp))
(assert
 (let ((?x24 (* p q)))
 (<= ?x24 (* (* a pp) qq))))
(assert
 (let ((?x28 (* pp qq)))
 (<= ?x28 (* (* a p) q))))
(assert
 (let ((?x32 (* q s)))
(let (($x34 (<= ?x32 (* a qq))))
(not $x34))))
(check-sat)
