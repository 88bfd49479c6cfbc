; information-density lemma for cuffyu2016.density
; for all reals q, q_i, w_i, J_i >= 0 with w_1 + w_2 = 1 and a >= 1: q <= a q_i (i = 1, 2) implies q <= a (w_1 q_1 + w_2 q_2); and l_i <= c implies J_1 l_1 + J_2 l_2 <= (J_1 + J_2) c. Merged pairwise: Q[x][y] <= e^eps_all p(y), so I(X;Y) = sum J ln(Q/p(y)) <= eps_all (ln increasing, sum J = 1)
; the assertions are the lemma's hypotheses and the negation of its goal: 'unsat' proves the lemma.
; z3 said: unsat
; benchmark generated from python API
(set-info :status unknown)
(set-logic ALL)
(declare-fun q () Real)
(declare-fun q1 () Real)
(declare-fun q2 () Real)
(declare-fun w1 () Real)
(declare-fun w2 () Real)
(declare-fun a () Real)
(declare-fun j1 () Real)
(declare-fun j2 () Real)
(declare-fun c () Real)
(declare-fun l1 () Real)
(declare-fun l2 () Real)
(assert
 (>= q 0.0))
(assert
 (>= q1 0.0))
(assert
 (>= q2 0.0))
(assert
 (>= w1 0.0))
(assert
 (>= w2 0.0))
(assert
 (let ((?x22 (+ w1 w2)))
 (= ?x22 1.0)))
(assert
 (>= a 1.0))
(assert
 (<= q (* a q1)))
(assert
 (<= q (* a q2)))
(assert
 (>= j1 0.0))
(assert
 (>= j2 0.0))
(assert
 (<= l1 c))
(assert
 (<= l2 c))
(assert
 (let (($x45 (and (<= q (* a (+ (* w1 q1) (* w2 q2)))) (<= (+ (* j1 l1) (* j2 l2)) (* (+ j1 j2) c)))))
(not $x45)))
(check-sat)
