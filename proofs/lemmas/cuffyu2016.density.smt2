; information-density lemma for cuffyu2016.density
; for all reals: (i) q, b_i, w_i >= 0 with w_1 + w_2 = 1 and q <= b_i (i = 1, 2) imply q <= w_1 b_1 + w_2 b_2; (ii) w_1 (a q_1) + w_2 (a q_2) = a (w_1 q_1 + w_2 q_2), so with b_i = a q_i: q <= a q_i (i = 1, 2) implies q <= a (w_1 q_1 + w_2 q_2); (iii) J_i >= 0 and l_i <= c imply J_1 l_1 + J_2 l_2 <= (J_1 + J_2) c. Merged pairwise: Q[x][y] <= e^eps_all p(y), so I(X;Y) = sum J ln(Q/p(y)) <= eps_all (ln increasing, sum J = 1)
; 3 blocks separated by (reset), each the hypotheses and the negated goal of one part of the lemma: 'unsat' in every block proves the lemma.
; z3 said: unsat (every block)
; block 1 of 3: (i) mixture of upper bounds
; benchmark generated from python API
(set-info :status unknown)
(set-logic ALL)
(declare-fun q () Real)
(declare-fun b1 () Real)
(declare-fun b2 () Real)
(declare-fun w1 () Real)
(declare-fun w2 () Real)
(assert
 (>= q 0.0))
(assert
 (>= b1 0.0))
(assert
 (>= b2 0.0))
(assert
 (>= w1 0.0))
(assert
 (>= w2 0.0))
(assert
 (let ((?x16 (+ w1 w2)))
 (= ?x16 1.0)))
(assert
 (<= q b1))
(assert
 (<= q b2))
(assert
 (let (($x24 (<= q (+ (* w1 b1) (* w2 b2)))))
(not $x24)))
(check-sat)

(reset)
; block 2 of 3: (ii) the factor a out of the mixture
; benchmark generated from python API
(set-info :status unknown)
(set-logic ALL)
(declare-fun q2 () Real)
(declare-fun w2 () Real)
(declare-fun q1 () Real)
(declare-fun w1 () Real)
(declare-fun a () Real)
(assert
 (let (($x37 (= (+ (* w1 (* a q1)) (* w2 (* a q2))) (* a (+ (* w1 q1) (* w2 q2))))))
(not $x37)))
(check-sat)

(reset)
; block 3 of 3: (iii) average
; benchmark generated from python API
(set-info :status unknown)
(set-logic ALL)
(declare-fun j1 () Real)
(declare-fun j2 () Real)
(declare-fun c () Real)
(declare-fun l1 () Real)
(declare-fun l2 () Real)
(assert
 (>= j1 0.0))
(assert
 (>= j2 0.0))
(assert
 (<= l1 c))
(assert
 (<= l2 c))
(assert
 (let (($x52 (<= (+ (* j1 l1) (* j2 l2)) (* (+ j1 j2) c))))
(not $x52)))
(check-sat)
