; path-composition lemma for dworkroth2014.group
; for all reals q1, q2, q3 >= 0, a, b >= 1: q1 <= a q2 and q2 <= b q3 imply q1 <= a b q3; by induction along a shortest path of length g <= diam, Q[x][y] <= a^g Q[x'][y] <= a^diam Q[x'][y]
; the assertions are the lemma's hypotheses and the negation of its goal: 'unsat' proves the lemma.
; z3 said: unsat
; benchmark generated from python API
(set-info :status unknown)
(set-logic ALL)
(declare-fun q1 () Real)
(declare-fun q2 () Real)
(declare-fun q3 () Real)
(declare-fun a () Real)
(declare-fun b () Real)
(assert
 (>= q1 0.0))
(assert
 (>= q2 0.0))
(assert
 (>= q3 0.0))
(assert
 (>= a 1.0))
(assert
 (>= b 1.0))
(assert
 (<= q1 (* a q2)))
(assert
 (<= q2 (* b q3)))
(assert
 (let (($x23 (<= q1 (* (* a b) q3))))
(not $x23)))
(check-sat)
