; relations.thm5_corrected: eps_m <= diam * (eps_i - sigma_min), by composition of the lemma-proved relations cuffyu2016.density, dworkroth2014.group, suntay2020.thm1xii, zheng2025.eq17, zheng2025.thm1
; the named assertions are those relations as facts on the minimal budgets; the last assertion is the negated claim: 'unsat' proves it.
; setting: central
; benchmark generated from python API
(set-info :status unknown)
(declare-fun eps_d () Real)
(declare-fun eps_all () Real)
(declare-fun eps_m () Real)
(declare-fun sigma () Real)
(declare-fun diam () Real)
(declare-fun eps_i () Real)
(declare-fun zheng2025.thm1 () Bool)
(declare-fun zheng2025.eq17 () Bool)
(declare-fun suntay2020.thm1xiv () Bool)
(declare-fun suntay2020.thm1xii () Bool)
(declare-fun dworkroth2014.group () Bool)
(declare-fun cuffyu2016.density () Bool)
(declare-fun relations.thm2_corrected () Bool)
(assert
 (>= eps_d 0.0))
(assert
 (>= eps_all eps_d))
(assert
 (>= eps_m 0.0))
(assert
 (<= sigma 0.0))
(assert
 (>= diam 1.0))
(assert
 (let ((?x233 (* (- 1.0) sigma)))
 (let ((?x275 (* 1.0 eps_i)))
 (let ((?x184 (+ ?x275 ?x233)))
 (let (($x6 (<= eps_d ?x184)))
 (=> zheng2025.thm1 $x6))))))
(assert
 (let (($x35 (<= (- sigma) (+ (* 1.0 eps_i) 0.0))))
 (=> zheng2025.eq17 $x35)))
(assert
 (let ((?x233 (* (- 1.0) sigma)))
 (let ((?x275 (* 1.0 eps_i)))
 (let ((?x184 (+ ?x275 ?x233)))
 (let (($x6 (<= eps_d ?x184)))
 (=> suntay2020.thm1xiv $x6))))))
(assert
 (let (($x71 (<= eps_i (+ (* 1.0 eps_d) (* (- 1.0) sigma)))))
 (=> suntay2020.thm1xii $x71)))
(assert
 (let (($x84 (<= eps_all (* diam (+ (* 1.0 eps_d) 0.0)))))
 (=> dworkroth2014.group $x84)))
(assert
 (let (($x43 (<= eps_m (+ (* 1.0 eps_all) 0.0))))
 (=> cuffyu2016.density $x43)))
(assert
 (let (($x71 (<= eps_i (+ (* 1.0 eps_d) (* (- 1.0) sigma)))))
 (=> relations.thm2_corrected $x71)))
(assert
 (not (<= eps_m (* diam (+ (* 1.0 eps_i) (* (- 1.0) sigma))))))
(check-sat)
