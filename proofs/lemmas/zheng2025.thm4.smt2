; DP->ID per-triple lemma for zheng2025.thm4
; for all reals p, p' > 0, q, q' >= 0, a >= 1, 0 < s <= 1: q <= a q' and q' <= a q, s p' <= p, s p <= p' imply p q/(p' q') <= a^1 s^1
; the assertions are the lemma's hypotheses and the negation of its goal: 'unsat' proves the lemma.
; z3 said: refuted
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
 (<= q (* a qq)))
(assert
 (<= qq (* a q)))
(assert
 (let (($x33 (<= (* (* p q) 1.0) (* (* (* a s) pp) qq))))
(not $x33)))
(check-sat)
