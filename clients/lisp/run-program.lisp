;;;; run-program.lisp -- uiop:run-program's shape over brisk's warm shells.
;;;;
;;;;   (brisk:run-program "ls /usr" :output :lines)                 ; => ("bin" ...), nil, 0
;;;;   (brisk:run-program '("grep" "-c" "x") :input stream :output :string :ignore-error-status t)
;;;;
;;;; The same arguments, values and conditions as uiop:run-program: swapping one for the other
;;;; changes the time a call takes, not what it does. The differences are named in clients/lisp/README.md.

(require :asdf)

(in-package :brisk)

(defun stream-processor-call (function processor stream)
  "Calls uiop's SLURP-INPUT-STREAM or VOMIT-OUTPUT-STREAM as uiop does: PROCESSOR is a value, or a
list of a value and keyword arguments."
  (if (consp processor)
      (apply function (first processor) stream (rest processor))
      (funcall function processor stream)))

(defun interactive-spec-p (spec)
  "True for what only a process of the caller's own can give: its descriptors (:interactive), a
stream to read while it runs (:stream), and values uiop refuses (:output where it makes no sense)."
  (member spec '(:interactive :stream :output)))

(defun read-stream-octets (stream external-format)
  (if (subtypep (stream-element-type stream) 'character)
      (sb-ext:string-to-octets (uiop:slurp-stream-string stream) :external-format external-format)
      (let ((out (make-array 4096 :element-type '(unsigned-byte 8) :adjustable t :fill-pointer 0))
            (buf (make-array 65536 :element-type '(unsigned-byte 8))))
        (loop for n = (read-sequence buf stream)
              while (plusp n)
              do (loop for i below n do (vector-push-extend (aref buf i) out)))
        (coerce out '(simple-array (unsigned-byte 8) (*))))))

(defun input-octets (input if-does-not-exist external-format)
  "The command's stdin as octets, or NIL for none, from uiop's INPUT designators."
  (typecase input
    (null nil)
    ((or string pathname)
     (with-open-file (in (uiop:ensure-pathname input :want-non-wild t) :element-type '(unsigned-byte 8)
                                                                      :if-does-not-exist if-does-not-exist)
       (read-stream-octets in external-format)))
    ((eql t) (read-stream-octets *standard-input* external-format))
    (stream (read-stream-octets input external-format))
    (t (sb-ext:string-to-octets
        (with-output-to-string (s) (stream-processor-call #'uiop:vomit-output-stream input s))
        :external-format external-format))))

(defun deliver (spec octets default-stream if-exists element-type external-format)
  "Hands a stream's octets to uiop's OUTPUT or ERROR-OUTPUT designator SPEC; returns what
uiop:run-program would return for it (NIL for files, streams and none)."
  (flet ((text () (sb-ext:octets-to-string octets :external-format external-format)))
    (typecase spec
      (null nil)
      ((or string pathname)
       (with-open-file (out (uiop:ensure-pathname spec :want-non-wild t) :direction :output
                            :element-type '(unsigned-byte 8) :if-exists if-exists :if-does-not-exist :create)
         (write-sequence octets out))
       nil)
      ((eql t) (write-string (text) default-stream) nil)
      (stream (if (subtypep (stream-element-type spec) 'character)
                  (write-string (text) spec)
                  (write-sequence octets spec))
              nil)
      (t (if (or (eq element-type :default) (subtypep element-type 'character))
             (with-input-from-string (in (text))
               (stream-processor-call #'uiop:slurp-input-stream spec in))
             ;; binary processing reads a file, as uiop's own does
             (uiop:with-temporary-file (:pathname p)
               (with-open-file (out p :direction :output :element-type '(unsigned-byte 8) :if-exists :supersede)
                 (write-sequence octets out))
               (with-open-file (in p :element-type element-type)
                 (stream-processor-call #'uiop:slurp-input-stream spec in))))))))

(defun program-on-path-p (program environment)
  "True when exec would find PROGRAM: a path that names an executable, or a name on PATH."
  (flet ((executable-p (path) (sb-unix:unix-access path sb-unix:x_ok)))
    (if (find #\/ program)
        (executable-p program)
        (loop for dir in (uiop:split-string (or (cdr (assoc "PATH" environment :test #'string=)) "")
                                            :separator ":")
              thereis (executable-p (concatenate 'string (if (string= dir "") "." dir) "/" program))))))

(defun absolute-directory (directory)
  (let ((d (uiop:native-namestring
            (uiop:merge-pathnames* (uiop:ensure-directory-pathname directory) (uiop:getcwd)))))
    (if (and (> (length d) 1) (char= #\/ (char d (1- (length d))))) (subseq d 0 (1- (length d))) d)))

(defun run-program (command &rest keys
                    &key ignore-error-status force-shell
                      input (if-input-does-not-exist :error)
                      output (if-output-exists :supersede)
                      error-output (if-error-output-exists :supersede)
                      (element-type uiop:*default-stream-element-type*)
                      (external-format uiop:*utf-8-external-format*)
                      directory timeout client)
  "Runs COMMAND as uiop:run-program does, on the brisk server: a string is shell text, a list
is a program and its arguments (run without a shell unless FORCE-SHELL). INPUT, OUTPUT,
ERROR-OUTPUT, their IF-... arguments, ELEMENT-TYPE, EXTERNAL-FORMAT, DIRECTORY and
IGNORE-ERROR-STATUS mean what they mean there; returns the same three values (OUTPUT's result,
ERROR-OUTPUT's result, the exit code) and signals UIOP:SUBPROCESS-ERROR, continuable, for a
non-zero exit code unless IGNORE-ERROR-STATUS. The command runs in this process's working
directory with its environment, as a child would.
Beyond uiop: TIMEOUT in seconds (the command is killed after it: exit code 143 or 137), and
CLIENT, a connection from CONNECT (default *CLIENT*, made on first use: the server is started
when none runs). What needs the process's own descriptors (:INTERACTIVE, :STREAM) is handed to
uiop:run-program itself. Bad arguments signal TYPE-ERROR and unknown keywords PROGRAM-ERROR, as
for any Lisp function, before anything is sent."
  (when (or (interactive-spec-p input) (interactive-spec-p output)
            (and (interactive-spec-p error-output) (not (eq error-output :output))))
    (return-from run-program
      (apply #'uiop:run-program command (uiop:remove-plist-keys '(:timeout :client) keys))))
  (if (listp command)
      (progn (assert command (command) "an argv list needs a program")
             (dolist (w command) (check-type w word)))
      (check-type command word))
  (check-type timeout (or null (real 0)))
  (let* ((environment (current-environment))
         (merged (eq error-output :output))
         (shell-text (cond ((stringp command) command)
                           ((or force-shell merged) (uiop:escape-sh-command command))))
         (stdin (input-octets input if-input-does-not-exist external-format)))
    (when (and (listp command) (not force-shell)
               (not (program-on-path-p (first command) environment)))
      (error "Couldn't execute ~S: No such file or directory" (first command)))
    (multiple-value-bind (out code err)
        (run (cond ((not shell-text) command)
                   (merged (format nil "exec 2>&1~%~a" shell-text))
                   (t shell-text))
             :input stdin :timeout timeout :client client :env environment :external-format :octets
             :directory (absolute-directory (or directory (uiop:getcwd))))
      (let ((output-result (deliver output out *standard-output* if-output-exists element-type external-format))
            (error-result (if merged
                              nil
                              (deliver error-output err *error-output* if-error-output-exists
                                       element-type external-format))))
        (unless (or ignore-error-status (eql code 0))
          (cerror "IGNORE-ERROR-STATUS" 'uiop:subprocess-error :command command :code code :process nil))
        (values output-result error-result code)))))
