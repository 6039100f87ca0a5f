;;;; brisk serve from SBCL against uiop:run-program and one persistent bash fed lines.
;;;; Run by bench/serve.sh: sbcl --script serve_bench.lisp ROUNDS N DIR
(require :asdf)
(load (merge-pathnames "../clients/lisp/brisk.lisp" *load-truename*))

(defvar *args* (cdr sb-ext:*posix-argv*))
(defvar *rounds* (parse-integer (first *args*)))
(defvar *n* (parse-integer (second *args*)))
(defvar *dir* (third *args*))

(defvar *bash* (sb-ext:run-program "/bin/bash" '("--noprofile" "--norc") :input :stream :output :stream
                                   :wait nil :directory *dir*))

(defun via-brisk (cmd) (values (brisk:run cmd)))
(defun via-uiop (cmd) (uiop:run-program cmd :output :string :ignore-error-status t))
(defun via-bash (cmd)
  ;; the window manager author's recipe: one bash, a command per line, an end marker after it
  (let ((in (sb-ext:process-input *bash*)) (out (sb-ext:process-output *bash*)))
    (format in "~a; echo __end__$?~%" cmd)
    (finish-output in)
    (with-output-to-string (s)
      (loop for line = (read-line out)
            until (eql 0 (search "__end__" line))
            do (write-line line s)))))

(defvar *methods* (list (cons "brisk serve" #'via-brisk) (cons "uiop:run-program" #'via-uiop)
                        (cons "persistent bash" #'via-bash)))
(defvar *samples* (make-hash-table :test 'equal))

(dolist (cmd (list "true" (format nil "ls ~a" *dir*)))
  (let ((want (via-uiop cmd)))
    (dolist (m *methods*) (assert (string= want (funcall (cdr m) cmd))))))

(defun now-ns () (multiple-value-bind (s us) (sb-ext:get-time-of-day) (+ (* s 1000000000) (* us 1000))))

(dotimes (r *rounds*)
  (dolist (cmd (list "true" (format nil "ls ~a" *dir*)))
    (dolist (m *methods*)
      (let ((key (list cmd (car m))))
        (dotimes (i *n*)
          (let ((t0 (now-ns)))
            (funcall (cdr m) cmd)
            (push (- (now-ns) t0) (gethash key *samples*))))))))

(format t "sbcl: ~d rounds x ~d calls, in ~a~%" *rounds* *n* *dir*)
(format t "~6a ~18a ~10@a ~10@a ~12@a~%" "cmd" "method" "median us" "p99 us" "per 1000 ms")
(dolist (cmd (list "true" (format nil "ls ~a" *dir*)))
  (dolist (m *methods*)
    (let* ((v (sort (coerce (gethash (list cmd (car m)) *samples*) 'vector) #'<))
           (len (length v)))
      (format t "~6a ~18a ~10,1f ~10,1f ~12,1f~%" cmd (car m)
              (/ (aref v (floor len 2)) 1000.0) (/ (aref v (floor (* len 99) 100)) 1000.0)
              (/ (reduce #'+ v) len 1000000.0 (/ 1 1000))))))
