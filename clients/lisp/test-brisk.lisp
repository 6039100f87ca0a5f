;;;; Tests of brisk.lisp against a live `brisk serve` at $BRISK_SOCKET (run by ServeIT):
;;;; sbcl --script clients/lisp/test-brisk.lisp
(load (merge-pathnames "brisk.lisp" *load-truename*))

(defvar *failures* 0)

(defmacro check (name form expected)
  `(let ((got (multiple-value-list ,form)))
     (unless (equalp got ,expected)
       (incf *failures*)
       (format t "FAIL ~a: got ~s, expected ~s~%" ,name got ,expected))))

(defun octets (&rest xs) (coerce xs '(vector (unsigned-byte 8))))

(check "status and separate output"
       (brisk:run "echo out; echo err >&2; exit 3") '("out
" 3 "err
" nil))
(check "exit 255" (nth-value 1 (brisk:run "exit 255")) '(255))
(check "binary, NUL, no final newline"
       (brisk:run "printf 'a\\0b\\377'; printf 'e\\0' >&2" :external-format :octets)
       (list (octets 97 0 98 255) 0 (octets 101 0) nil))
(check "frame-shaped output"
       (brisk:run "printf 'x\\0\\0\\0\\1\\0\\0\\0\\6E'" :external-format :octets)
       (list (octets 120 0 0 0 1 0 0 0 6 69) 0 (octets) nil))
(check "latin-1 round trip"
       (let ((all (coerce (loop for i below 256 collect (code-char i)) 'string)))
         (string= all (brisk:run "cat" :input (sb-ext:string-to-octets all :external-format :latin-1)
                                       :external-format :latin-1)))
       '(t))
(check "stdin inline" (brisk:run "cat" :input "hello") '("hello" 0 "" nil))
(check "stdin streamed"
       (let ((big (make-string 1500000 :initial-element #\z)))
         (length (brisk:run "cat" :input big)))
       '(1500000))
(check "no stdin is end of file" (brisk:run "wc -c") '("0
" 0 "" nil))
(check "directory and env" (brisk:run "echo $PWD $A" :directory "/usr" :env '(("A" . "x y")))
       '("/usr x y
" 0 "" nil))
(check "argv" (brisk:run '("printf" "%s|" "a b" "it's")) '("a b|it's|" 0 "" nil))
(check "timeout" (multiple-value-bind (out code err timed-out) (brisk:run "sleep 30" :timeout 0.3)
                   (declare (ignore out err))
                   (list (and (member code '(137 143)) t) timed-out))
       '((t t)))
(check "session state"
       (brisk:with-session (a)
         (brisk:with-session (b)
           (brisk:run "cd /tmp; x=1" :session a)
           (brisk:run "cd /usr; x=2" :session b)
           (list (brisk:run "echo $PWD $x" :session a) (brisk:run "echo $PWD $x" :session b)
                 (brisk:run "echo [$x]"))))
       '(("/tmp 1
" "/usr 2
" "[]
")))
(check "server error is a condition"
       (handler-case (brisk:run "true" :directory "relative") (brisk:brisk-error () :refused))
       '(:refused))
(check "after an error the connection still works" (brisk:run "echo ok") '("ok
" 0 "" nil))
(check "many commands"
       (loop for i below 500 always (string= (brisk:run (format nil "echo ~d" i)) (format nil "~d~%" i)))
       '(t))
(check "100 clients x 10 commands at once, one thread and connection each"
       (let* ((threads (loop for n below 100
                             collect (let ((n n))
                                       (sb-thread:make-thread
                                        (lambda ()
                                          (let ((c (brisk:connect)))
                                            (unwind-protect
                                                 (loop for j below 10
                                                       always (equal (multiple-value-list
                                                                      (brisk:run (format nil "echo ~d-~d; exit ~d" n j (mod j 3))
                                                                                 :client c))
                                                                     (list (format nil "~d-~d~%" n j) (mod j 3) "" nil)))
                                              (brisk:disconnect c)))))))))
         (every #'identity (mapcar #'sb-thread:join-thread threads)))
       '(t))
(brisk:disconnect)
(if (zerop *failures*)
    (format t "all passed~%")
    (progn (format t "~d failed~%" *failures*) (sb-ext:exit :code 1)))
