; relations.thm7_sharp: eps_m <= eps_i - sigma_min, by composition of the lemma-proved relations cuffyu2016.density, dworkroth2014.group, zheng2025.thm3
; the named assertions are those relations as facts on the minimal budgets; the last assertion is the negated claim: 'unsat' proves it.
; setting: local
; benchmark generated from python API
(set-info :status unknown)
(declare-fun eps_d () Real)
(declare-fun eps_all () Real)
(declare-fun eps_m () Real)
(declare-fun sigma () Real)
(declare-fun diam () Real)
(declare-fun eps_i () Real)
(declare-fun zheng2025.thm3 () Bool)
(declare-fun zheng2025.eq18 () Bool)
(declare-fun suntay2020.thm1xiv () Bool)
(declare-fun suntay2020.thm1xii () Bool)
(declare-fun dworkroth2014.group () Bool)
(declare-fun cuffyu2016.density () Bool)
(declare-fun relations.thm4_corrected () Bool)
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
 (= diam 1.0))
(assert
 (let ((?x84 (* (- 1.0) sigma)))
 (let ((?x46 (* 1.0 eps_i)))
 (let ((?x178 (+ ?x46 ?x84)))
 (let (($x78 (<= eps_d ?x178)))
 (=> zheng2025.thm3 $x78))))))
(assert
 (let (($x43 (<= (- sigma) (+ (* 1.0 eps_i) 0.0))))
 (=> zheng2025.eq18 $x43)))
(assert
 (let ((?x84 (* (- 1.0) sigma)))
 (let ((?x46 (* 1.0 eps_i)))
 (let ((?x178 (+ ?x46 ?x84)))
 (let (($x78 (<= eps_d ?x178)))
 (=> suntay2020.thm1xiv $x78))))))
(assert
 (let (($x39 (<= eps_i (+ (* 1.0 eps_d) (* (- 1.0) sigma)))))
 (=> suntay2020.thm1xii $x39)))
(assert
 (let (($x190 (<= eps_all (* diam (+ (* 1.0 eps_d) 0.0)))))
 (=> dworkroth2014.group $x190)))
(assert
 (let (($x148 (<= eps_m (+ (* 1.0 eps_all) 0.0))))
 (=> cuffyu2016.density $x148)))
(assert
 (let (($x39 (<= eps_i (+ (* 1.0 eps_d) (* (- 1.0) sigma)))))
 (=> relations.thm4_corrected $x39)))
(assert
 (not (<= eps_m (+ (* 1.0 eps_i) (* (- 1.0) sigma)))))
(check-sat)
