;;;; Inside a running StumpWM with the brisk-stumpwm module loaded: N x (run-shell-command CMD t)
;;;; through brisk, then N x through StumpWM's own run-shell-command (the module disabled), then
;;;; N x through one persistent bash fed lines (the window manager author's recipe, the floor).
;;;; Loaded by bench/stumpwm.sh and StumpwmIT, which then send, through StumpWM's command
;;;; interface (the root window's STUMPWM_COMMAND property, as stumpish does):
;;;;   eval-line (brisk-stumpwm-bench:compare N "CMD" "RESULT-FILE")

(defpackage #:brisk-stumpwm-bench
  (:use #:cl)
  (:export #:compare #:warm-up #:mode-line-text #:fallback #:one-line))

(in-package #:brisk-stumpwm-bench)

(defun timed (n command &optional (run (lambda (c) (stumpwm:run-shell-command c t))))
  "Runs COMMAND N times with RUN; returns the seconds taken, the first output and whether every
output was the first's."
  (let* ((start (get-internal-real-time))
         (outputs (loop repeat n collect (funcall run command)))
         (seconds (/ (- (get-internal-real-time) start) internal-time-units-per-second)))
    (values (float seconds) (first outputs)
            (every (lambda (o) (string= o (first outputs))) outputs))))

(defun persistent-bash (n command)
  "TIMED's values for COMMAND run N times by one bash fed `COMMAND; echo __end__$?' lines."
  (let ((bash (sb-ext:run-program "/bin/bash" '("--noprofile" "--norc") :input :stream :output :stream
                                                                        :wait nil)))
    (unwind-protect
         (timed n command
                (lambda (c)
                  (let ((in (sb-ext:process-input bash)) (out (sb-ext:process-output bash)))
                    (format in "~a; echo __end__$?~%" c)
                    (finish-output in)
                    (with-output-to-string (s)
                      (loop for line = (read-line out)
                            until (eql 0 (search "__end__" line))
                            do (write-line line s))))))
      (close (sb-ext:process-input bash))
      (sb-ext:process-wait bash)
      (sb-ext:process-close bash))))

(defun warm-up (n command)
  "Runs COMMAND N times through brisk, so the server's JIT has compiled its paths; returns :warm."
  (brisk-stumpwm:enable)
  (dotimes (i n) (stumpwm:run-shell-command command t))
  :warm)

(defun compare (n command result-file)
  "Times N calls through brisk, N StumpWM's own way and N by a persistent bash; writes a plist
to RESULT-FILE (written whole, then renamed, so a reader never sees half of it); returns :done."
  (brisk-stumpwm:enable)
  (stumpwm:run-shell-command command t)    ; the connection, made before the clock starts
  (let ((before (brisk-stumpwm:calls)))
    (multiple-value-bind (brisk-seconds brisk-output brisk-same) (timed n command)
      (let ((through-brisk (- (brisk-stumpwm:calls) before)))
        (brisk-stumpwm:disable)
        (multiple-value-bind (own-seconds own-output own-same) (timed n command)
          (brisk-stumpwm:enable)
          (multiple-value-bind (bash-seconds bash-output) (persistent-bash n command)
            (let ((tmp (concatenate 'string result-file ".tmp")))
              (with-open-file (s tmp :direction :output :if-exists :supersede)
                (with-standard-io-syntax
                  (let ((*print-readably* nil) (*print-pretty* nil))
                    (prin1 (list :n n :command command
                                 :brisk-seconds brisk-seconds :own-seconds own-seconds :bash-seconds bash-seconds
                                 :outputs-equal (and brisk-same own-same (string= brisk-output own-output))
                                 :brisk-output brisk-output :own-output own-output :bash-output bash-output
                                 :through-brisk through-brisk)
                           s))))
              (sb-posix:rename tmp result-file)))))))
  :done)

(defun one-line (text)
  (substitute #\| #\Newline text))

(defun mode-line-text (command)
  "Shows a mode line whose format runs COMMAND (the manual's (:eval (run-shell-command ... t)));
returns one line: its text (newlines as |) and how many commands brisk ran for it."
  (let* ((screen (stumpwm:current-screen)) (head (stumpwm:current-head))
         (before (brisk-stumpwm:calls)))
    (stumpwm:enable-mode-line screen head t (list "ml:" `(:eval (stumpwm:run-shell-command ,command t))))
    (let ((ml (stumpwm::head-mode-line head)))
      (stumpwm::redraw-mode-line ml t)
      (prog1 (format nil "text=~a brisk=~d" (one-line (stumpwm::mode-line-contents ml))
                     (- (brisk-stumpwm:calls) before))
        (stumpwm:enable-mode-line screen head nil)))))

(defun fallback (command)
  "Runs COMMAND with no brisk server to reach (a socket path where none listens, a brisk command
that cannot start one): returns one line: its output (newlines as |), and the commands run
through brisk and StumpWM's own way meanwhile."
  (let ((socket (sb-posix:getenv "BRISK_SOCKET")) (brisk (sb-posix:getenv "BRISK_COMMAND")))
    (brisk-stumpwm:disable)
    (sb-posix:setenv "BRISK_SOCKET" "/nonexistent/brisk-bench/serve.sock" 1)
    (sb-posix:setenv "BRISK_COMMAND" "/bin/false" 1)
    (brisk-stumpwm:enable)
    (unwind-protect
         (multiple-value-bind (b0 o0) (brisk-stumpwm:calls)
           (let ((out (stumpwm:run-shell-command command t)))
             (multiple-value-bind (b1 o1) (brisk-stumpwm:calls)
               (format nil "output=~a brisk=~d own=~d" (one-line out) (- b1 b0) (- o1 o0)))))
      (if socket (sb-posix:setenv "BRISK_SOCKET" socket 1) (sb-posix:unsetenv "BRISK_SOCKET"))
      (if brisk (sb-posix:setenv "BRISK_COMMAND" brisk 1) (sb-posix:unsetenv "BRISK_COMMAND"))
      (brisk-stumpwm:disable)
      (brisk-stumpwm:enable))))
