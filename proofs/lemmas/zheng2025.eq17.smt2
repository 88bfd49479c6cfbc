; prior-bound (mediant) lemma for zheng2025.eq17
; for all reals p, p' > 0, u, v >= 0 with u1+u2 = v1+v2 = 1: p u_i <= a p' v_i (i = 1, 2) implies p/p' <= a^1 s^0; outputs merge pairwise, so it covers any number of outputs
; the assertions are the lemma's hypotheses and the negation of its goal: 'unsat' proves the lemma.
; z3 said: unsat
; benchmark generated from python API
(set-info :status unknown)
(set-logic ALL)
(declare-fun p () Real)
(declare-fun pp () Real)
(declare-fun u1 () Real)
(declare-fun u2 () Real)
(declare-fun v1 () Real)
(declare-fun v2 () Real)
(declare-fun a () Real)
(declare-fun s () Real)
(assert
 (> p 0.0))
(assert
 (> pp 0.0))
(assert
 (>= u1 0.0))
(assert
 (>= u2 0.0))
(assert
 (>= v1 0.0))
(assert
 (>= v2 0.0))
(assert
 (let ((?x20 (+ u1 u2)))
 (= ?x20 1.0)))
(assert
 (let ((?x23 (+ v1 v2)))
 (= ?x23 1.0)))
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
 (let ((?x32 (* p u1)))
 (<= ?x32 (* (* a pp) v1))))
(assert
 (let ((?x36 (* p u2)))
 (<= ?x36 (* (* a pp) v2))))
(assert
 (let ((?x33 (* a pp)))
(let (($x40 (<= (* p 1.0) ?x33)))
(not $x40))))
(check-sat)
