; zheng2025.thm11: eps_m <= 2 eps_d, by composition of the lemma-proved relations cuffyu2016.density, dworkroth2014.group
; the named assertions are those relations as facts on the minimal budgets; the last assertion is the negated claim: 'unsat' proves it.
; scope covered (the facts' scopes intersected, as in relations/proofs/_derive.py): every local domain, any prior
; setting: local
; facts asserted, in order after the ranges: cuffyu2016.density: eps_m <= eps_all; dworkroth2014.group: eps_all <= diam * eps_d
; benchmark generated from python API
(set-info :status unknown)
(set-logic ALL)
(declare-fun eps_d () Real)
(declare-fun eps_all () Real)
(declare-fun eps_m () Real)
(declare-fun sigma () Real)
(declare-fun diam () Real)
(assert
 (>= eps_d 0.0))
(assert
 (let ((?x36 (* (- 1.0) eps_all)))
 (let ((?x37 (+ eps_d ?x36)))
 (<= ?x37 0.0))))
(assert
 (>= eps_m 0.0))
(assert
 (<= sigma 0.0))
(assert
 (let (($x38 (= diam 1.0)))
 (let (($x13 (= diam 0.0)))
 (or $x13 $x38))))
(assert
 (<= eps_m (+ (* 1.0 eps_all) 0.0)))
(assert
 (<= eps_all (* diam (+ (* 1.0 eps_d) 0.0))))
(assert
 (not (<= eps_m (+ (* 2.0 eps_d) 0.0))))
(check-sat)
