;;;; test.lisp -- the system "brisk/test": brisk:run-program beside uiop:run-program, call for
;;;; call, against a live server ($BRISK_SOCKET, or the user's, started when none runs).
;;;;   sbcl --non-interactive --eval '(require :asdf)' --eval '(asdf:test-system "brisk")'
;;;; RUN-TESTS signals an error naming the failed checks; the protocol-level tests of brisk:run
;;;; are test-brisk.lisp's.

(defpackage :brisk/test
  (:use :cl)
  (:export #:run-tests))

(in-package :brisk/test)

(defvar *failures* '())

(defun check (name got expected)
  (unless (equalp got expected)
    (push name *failures*)
    (format t "FAIL ~a:~%  got      ~s~%  expected ~s~%" name got expected)))

(defun outcome (function)
  "FUNCTION's values as a list, or (:error TYPE) for the condition it signalled (TYPE-ERROR for
any type error)."
  (handler-case (multiple-value-list (funcall function))
    (type-error () (list :error 'type-error))
    (error (e) (list :error (type-of e)))))

(defun same-as-uiop (name command &rest keys)
  "Runs COMMAND with KEYS through uiop:run-program and brisk:run-program: the same values."
  (check name
         (outcome (lambda () (apply #'brisk:run-program command keys)))
         (outcome (lambda () (apply #'uiop:run-program command keys)))))

(defun file-text (path) (uiop:read-file-string path))

(defun uiop-parity ()
  (same-as-uiop "string command, :output :string" "echo out; echo err >&2" :output :string)
  (same-as-uiop "both outputs" "echo out; echo err >&2; exit 0" :output :string :error-output :string)
  (same-as-uiop ":output :lines" "printf 'a\\nb c\\n\\nd'" :output :lines)
  (same-as-uiop ":output '(:string :stripped t)" "echo x" :output '(:string :stripped t))
  (same-as-uiop ":output :line, :forms" "echo '(1 2) 3'" :output :forms)
  (same-as-uiop ":error-output :output" "echo 1; echo 2 >&2; echo 3" :output :string :error-output :output)
  (same-as-uiop "argv with quotes and spaces" '("printf" "[%s]" "a b" "it's" "\"q\"" "$HOME" "") :output :string)
  (same-as-uiop "argv, merged error output" '("sh" "-c" "echo a; echo b >&2") :output :string :error-output :output)
  (same-as-uiop "no output wanted" "echo discarded")
  (same-as-uiop ":interactive is uiop's own" "exit 0" :output :interactive :error-output :interactive)
  (same-as-uiop ":stream is refused as uiop refuses it" "true" :output :stream)
  (same-as-uiop "exit code, ignored" "exit 7" :ignore-error-status t)
  (same-as-uiop "exit code 255 with output" "echo x; exit 255" :output :string :ignore-error-status t)
  (same-as-uiop ":ignore-error-status nil signals" "echo x; exit 3" :output :string)
  (same-as-uiop "argv failure signals" '("false"))
  (same-as-uiop "a missing program is an error" '("brisk-test-no-such-program" "x"))
  (check ":input from a string stream"
         (outcome (lambda () (brisk:run-program "tr a-z A-Z" :input (make-string-input-stream (format nil "hello~%there"))
                                                              :output :string)))
         (outcome (lambda () (uiop:run-program "tr a-z A-Z" :input (make-string-input-stream (format nil "hello~%there"))
                                                             :output :string))))
  (same-as-uiop ":input nil is end of file" "wc -c" :output '(:string :stripped t))
  (same-as-uiop ":directory" "pwd; ls" :directory "/usr/" :output :lines)
  (same-as-uiop ":directory as a pathname, argv" '("pwd") :directory #p"/tmp/" :output :string)
  (check "UTF-8 both ways"
         (outcome (lambda () (brisk:run-program "cat; echo é" :input (make-string-input-stream "ü→") :output :string)))
         (outcome (lambda () (uiop:run-program "cat; echo é" :input (make-string-input-stream "ü→") :output :string))))
  (same-as-uiop "latin-1 external format" "printf '\\351\\n'" :output :string :external-format :latin-1)
  (let ((*standard-output* (make-string-output-stream)))
    (same-as-uiop ":output t" "echo to-standard-output" :output t)
    (check ":output t writes *standard-output*" (get-output-stream-string *standard-output*)
           (format nil "to-standard-output~%to-standard-output~%")))
  (check ":output a stream"
         (list (with-output-to-string (s) (brisk:run-program "echo a; echo b" :output s))
               (with-output-to-string (s) (uiop:run-program "echo a; echo b" :output s)))
         (list (format nil "a~%b~%") (format nil "a~%b~%")))
  (uiop:with-temporary-file (:pathname in)
    (with-open-file (s in :direction :output :if-exists :supersede) (write-string "from a file" s))
    (same-as-uiop ":input a pathname" "cat" :input in :output :string)
    (same-as-uiop ":input a missing file" "cat" :input "/nonexistent/brisk-test" :output :string))
  (uiop:with-temporary-file (:pathname out)
    (brisk:run-program "echo one" :output out)
    (brisk:run-program "echo two" :output out :if-output-exists :append)
    (check ":output a pathname, :if-output-exists :append" (file-text out) (format nil "one~%two~%"))
    (check ":if-output-exists :error"
           (outcome (lambda () (brisk:run-program "echo x" :output out :if-output-exists :error)))
           (outcome (lambda () (uiop:run-program "echo x" :output out :if-output-exists :error)))))
  (check "the environment a child would see"
         (progn (setf (uiop:getenv "BRISK_TEST_VAR") "x 'y' $z")
                (brisk:run-program "echo \"$BRISK_TEST_VAR\"" :output :string))
         (format nil "x 'y' $z~%"))
  (let ((here (uiop:getcwd)))
    (unwind-protect
         (progn (uiop:chdir "/usr/share/")
                (same-as-uiop "the working directory a child would have" "pwd" :output :string))
      (uiop:chdir here))))

(defun conditions ()
  (check "subprocess-error's code and command"
         (handler-case (brisk:run-program '("sh" "-c" "exit 4"))
           (uiop:subprocess-error (e) (list (uiop:subprocess-error-code e) (uiop:subprocess-error-command e))))
         '(4 ("sh" "-c" "exit 4")))
  (check "continuing a subprocess-error returns the values"
         (handler-bind ((uiop:subprocess-error #'continue))
           (multiple-value-list (brisk:run-program "echo x; exit 5" :output :string)))
         (list (format nil "x~%") nil 5))
  (check "timeout kills the command"
         (nth-value 2 (brisk:run-program "sleep 30" :timeout 0.3 :ignore-error-status t))
         143)
  (check "NUL in an argv word"
         (outcome (lambda () (brisk:run-program (list "echo" (format nil "a~cb" (code-char 0))))))
         '(:error type-error))
  (check "NUL in shell text"
         (outcome (lambda () (brisk:run (format nil "echo a~cb" (code-char 0)))))
         '(:error type-error))
  (check "negative timeout"
         (outcome (lambda () (brisk:run-program "true" :timeout -1)))
         '(:error type-error))
  (check "negative timeout, brisk:run" (outcome (lambda () (brisk:run "true" :timeout -1))) '(:error type-error))
  (check "unknown keyword"
         (handler-case (apply #'brisk:run-program "true" (list :no-such-keyword 1))
           (program-error () :program-error))
         :program-error)
  (check "an empty argv list" (outcome (lambda () (brisk:run-program '()))) '(:error simple-error))
  (check "after bad input the connection still works"
         (multiple-value-list (brisk:run-program "echo fine" :output :string))
         (list (format nil "fine~%") nil 0)))

(defun starting-the-server ()
  "With no server at the default socket, CONNECT runs `$BRISK_COMMAND daemon start' unless
BRISK:*START-SERVER* is NIL; either way, when nothing answers after it, BRISK-ERROR."
  (let ((socket (sb-posix:getenv "BRISK_SOCKET")) (command (sb-posix:getenv "BRISK_COMMAND")))
    (uiop:with-temporary-file (:pathname marker)
      (uiop:with-temporary-file (:pathname starter :stream s :direction :output)
        (format s "#!/bin/sh~%echo \"$@\" > '~a'~%exit 1~%" (uiop:native-namestring marker))
        :close-stream
        (sb-posix:chmod (uiop:native-namestring starter) #o700)
        (delete-file marker)
        (unwind-protect
             (progn
               (sb-posix:setenv "BRISK_SOCKET" "/nonexistent/brisk-test/serve.sock" 1)
               (sb-posix:setenv "BRISK_COMMAND" (uiop:native-namestring starter) 1)
               (check "*start-server* nil: refused, nothing started"
                      (list (let ((brisk:*start-server* nil))
                              (handler-case (brisk:connect) (brisk:brisk-error () :refused)))
                            (probe-file marker))
                      '(:refused nil))
               (check "no server: brisk daemon start is run"
                      (list (handler-case (brisk:connect) (brisk:brisk-error () :refused))
                            (and (probe-file marker) (uiop:read-file-string marker)))
                      (list :refused (format nil "daemon start~%"))))
          (if socket (sb-posix:setenv "BRISK_SOCKET" socket 1) (sb-posix:unsetenv "BRISK_SOCKET"))
          (if command (sb-posix:setenv "BRISK_COMMAND" command 1) (sb-posix:unsetenv "BRISK_COMMAND")))))))

(defun run-tests ()
  "Runs every check; signals an error naming the failures, else returns T."
  (setf *failures* '())
  (uiop-parity)
  (conditions)
  (starting-the-server)
  (check "many calls on one connection"
         (loop for i below 300
               always (equal (brisk:run-program (list "echo" (princ-to-string i)) :output :lines)
                             (list (princ-to-string i))))
         t)
  (brisk:disconnect)
  (when *failures*
    (error "brisk/test: ~d failed: ~{~a~^; ~}" (length *failures*) (reverse *failures*)))
  (format t "brisk/test: all passed~%")
  t)
