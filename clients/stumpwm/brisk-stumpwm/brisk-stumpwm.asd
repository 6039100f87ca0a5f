;;;; brisk-stumpwm.asd -- a StumpWM module: collected-output shell commands on brisk's warm shells.

(asdf:defsystem #:brisk-stumpwm
  :description "run-shell-command with collected output, and the mode line's shell formatters, on brisk's warm shells; StumpWM's own way when no brisk server can be reached."
  :author "brisk"
  :license "Apache-2.0"
  :version "1.0.0"
  :serial t
  :depends-on (#:stumpwm #:brisk)
  :components ((:file "brisk-stumpwm")))
