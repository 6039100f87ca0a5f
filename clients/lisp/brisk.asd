;;;; ASDF systems of brisk's Common Lisp client: "brisk" and its tests, "brisk/test".
;;;; Put this directory in asdf:*central-registry*, or link it under ~/common-lisp/, then
;;;; (asdf:load-system "brisk") and (asdf:test-system "brisk") (a brisk server must be reachable).

(defsystem "brisk"
  :description "Shell commands on brisk's warm shells from Common Lisp: brisk:run, and brisk:run-program in uiop:run-program's shape."
  :license "Apache-2.0"
  :version "1.0.0"
  :depends-on ((:require "sb-bsd-sockets") (:require "sb-posix") "uiop")
  :serial t
  :components ((:file "brisk") (:file "run-program"))
  :in-order-to ((test-op (test-op "brisk/test"))))

(defsystem "brisk/test"
  :description "Tests of the brisk client against a live server."
  :license "Apache-2.0"
  :depends-on ("brisk")
  :components ((:file "test"))
  :perform (test-op (o c) (uiop:symbol-call :brisk/test :run-tests)))
