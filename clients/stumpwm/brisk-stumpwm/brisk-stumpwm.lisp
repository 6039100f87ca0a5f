;;;; brisk-stumpwm.lisp -- StumpWM's collected-output shell commands on brisk's warm shells.
;;;;
;;;; (run-shell-command CMD t), and so the mode line's (:eval (run-shell-command CMD t))
;;;; formatters and every module that calls run-prog-collect-output, run on the user's brisk
;;;; server (started as the brisk command starts it when none runs) instead of a fork and exec
;;;; of /bin/sh from StumpWM's own process. What such a command sees is what StumpWM would have
;;;; given it: StumpWM's environment with the screen's DISPLAY, its working directory, no stdin;
;;;; its stderr goes to StumpWM's. When no server can be reached, StumpWM's own function runs
;;;; the command, and no connection is tried again for *RETRY-SECONDS*.

(defpackage #:brisk-stumpwm
  (:use #:cl)
  (:export #:enable #:disable #:*enabled* #:*retry-seconds* #:calls))

(in-package #:brisk-stumpwm)

(defvar *enabled* t "True while collected-output commands go through brisk.")
(defvar *retry-seconds* 30 "How long after a failed connection StumpWM's own way is used without trying again.")
(defvar *client* nil "This module's connection to the brisk server.")
(defvar *retry-at* 0 "The internal real time before which no connection is tried.")
(defvar *own-function* nil "StumpWM's run-prog-collect-output, kept for the fallback and DISABLE.")
(defvar *brisk-calls* 0)
(defvar *own-calls* 0)

(defun calls ()
  "Two values: the commands run through brisk, and those run StumpWM's own way, since loading."
  (values *brisk-calls* *own-calls*))

(defun connection ()
  (or *client*
      (when (>= (get-internal-real-time) *retry-at*)
        (handler-case (setf *client* (brisk:connect))
          (error ()
            (setf *retry-at* (+ (get-internal-real-time) (* *retry-seconds* internal-time-units-per-second)))
            nil)))))

(defun shell-text (program args)
  "The shell text of PROGRAM ARGS when they are `sh -c TEXT' (run-shell-command's call): brisk's
shells run it as sh would. Else NIL: the words are sent as an argv."
  (when (and (= (length args) 2) (string= (first args) "-c")
             (member (file-namestring program) '("sh" "bash" "dash") :test #'string=))
    (second args)))

(defun child-environment ()
  "The environment StumpWM gives a child (run-prog's rule): its own, with the screen's DISPLAY."
  (let ((env (brisk:current-environment)))
    (if (stumpwm:current-screen)
        (acons "DISPLAY" (stumpwm::screen-display-string (stumpwm:current-screen) nil)
               (remove "DISPLAY" env :key #'car :test #'string=))
        env)))

(defun run-through-brisk (client program args)
  (multiple-value-bind (out code err)
      (brisk:run (or (shell-text program args) (cons program args))
                 :client client :external-format sb-ext:*default-external-format*
                 :env (child-environment) :directory (sb-posix:getcwd))
    (declare (ignore code))
    (when (plusp (length err))
      (write-string err sb-sys:*stderr*)
      (finish-output sb-sys:*stderr*))
    (incf *brisk-calls*)
    out))

(defun collect-output (program &rest args)
  "StumpWM's run-prog-collect-output (PROGRAM ARGS... : their stdout as a string) through brisk."
  (let ((client (and *enabled* (connection))))
    (if client
        (handler-case (run-through-brisk client program args)
          (brisk:brisk-error ()
            ;; the server went away or refused: this call and the next ones StumpWM's own way
            (brisk:disconnect client)
            (setf *client* nil)
            (own-way program args)))
        (own-way program args))))

(defun own-way (program args)
  (incf *own-calls*)
  (apply *own-function* program args))

(defun enable ()
  "Runs collected-output commands through brisk (the state after loading); the next one tries to
connect even if the last try failed."
  (setf *retry-at* 0
        *enabled* t))

(defun disable ()
  "Runs collected-output commands StumpWM's own way, and closes the connection."
  (setf *enabled* nil)
  (when *client*
    (brisk:disconnect *client*)
    (setf *client* nil)))

(unless *own-function*
  (setf *own-function* (fdefinition 'stumpwm::run-prog-collect-output)))
(setf (fdefinition 'stumpwm::run-prog-collect-output) #'collect-output)

(stumpwm:defcommand brisk-status () ()
  "Says whether collected-output commands go through brisk, and how many went each way."
  (stumpwm:message "brisk: ~:[off~;on~], ~:[not connected~;connected~]; ~d commands through brisk, ~d StumpWM's own way"
                   *enabled* *client* *brisk-calls* *own-calls*))
