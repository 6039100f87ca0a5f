;;;; brisk.lisp -- client for `brisk serve`: shell commands on warm shells over a Unix socket.
;;;;
;;;; SBCL and its contribs only (sb-bsd-sockets, sb-posix). Part of the ASDF system "brisk"
;;;; (brisk.asd, which adds run-program.lisp: uiop:run-program's shape); on its own it also
;;;; loads with (load ...). The wire protocol is docs/PROTOCOL.md.
;;;;
;;;;   (asdf:load-system "brisk")   ; or (load "clients/lisp/brisk.lisp")
;;;;   (brisk:run "ls" :timeout 5 :directory "/tmp")   ; => stdout, exit code, stderr, timed-out-p
;;;;   (brisk:run "cat" :input "hello")                ; stdin: string or octets, else none (EOF)
;;;;   (brisk:with-session (s) (brisk:run "cd /tmp" :session s) (brisk:run "pwd" :session s))
;;;;
;;;; The first RUN connects to $BRISK_SOCKET, else $XDG_RUNTIME_DIR/brisk/serve.sock, else
;;;; /tmp/brisk-$UID/serve.sock, and keeps the connection in *CLIENT*. A client is thread-safe:
;;;; a mutex lets one request at a time use its connection (open one client per thread for
;;;; parallel commands). Closing it, or this process dying, kills what it still runs.

(require :sb-bsd-sockets)
(require :sb-posix)

(defpackage :brisk
  (:use :cl)
  (:export #:run #:connect #:disconnect #:*client* #:*start-server* #:default-socket-path
           #:open-session #:close-session #:with-session #:brisk-error
           #:run-program #:current-environment))

(in-package :brisk)

(defconstant +max-payload+ (expt 2 20))

(define-condition brisk-error (error)
  ((message :initarg :message :reader brisk-error-message))
  (:report (lambda (c s) (format s "brisk: ~a" (brisk-error-message c)))))

(defstruct (client (:constructor %make-client))
  socket stream (lock (sb-thread:make-mutex :name "brisk client")) (next-id 0))

(defvar *client* nil "The connection RUN uses when given no :client; made on first use.")

(defvar *start-server* t
  "When true, CONNECT without a path starts the user's brisk server if none answers; when NIL it
only says that none answers.")

(defun default-socket-path ()
  (let ((explicit (sb-ext:posix-getenv "BRISK_SOCKET"))
        (runtime (sb-ext:posix-getenv "XDG_RUNTIME_DIR")))
    (cond ((and explicit (plusp (length explicit))) explicit)
          ((and runtime (plusp (length runtime)) (char= (char runtime 0) #\/))
           (concatenate 'string runtime "/brisk/serve.sock"))
          (t (format nil "/tmp/brisk-~d/serve.sock" (sb-posix:getuid))))))

(defun octets (x)
  (etypecase x
    (string (sb-ext:string-to-octets x :external-format :utf-8))
    ((vector (unsigned-byte 8)) x)
    (vector (coerce x '(vector (unsigned-byte 8))))))

(defun u32 (n out)
  (loop for shift from 24 downto 0 by 8 do (write-byte (ldb (byte 8 shift) n) out)))

(defun write-frame (client type id payload)
  (let ((out (client-stream client)))
    (handler-case
        (progn (write-byte (char-code type) out)
               (u32 id out)
               (u32 (length payload) out)
               (write-sequence payload out)
               (finish-output out))
      (error (e) (error 'brisk-error :message (format nil "writing to brisk serve failed: ~a" e))))))

(defun read-u32 (buf start)
  (logior (ash (aref buf start) 24) (ash (aref buf (+ start 1)) 16)
          (ash (aref buf (+ start 2)) 8) (aref buf (+ start 3))))

(defun read-frame (client)
  "Returns type (a character), id and payload (octets)."
  (let* ((in (client-stream client))
         (header (make-array 9 :element-type '(unsigned-byte 8))))
    (unless (= 9 (read-sequence header in))
      (error 'brisk-error :message "the server closed the connection"))
    (let* ((n (read-u32 header 5))
           (payload (make-array n :element-type '(unsigned-byte 8))))
      (unless (= n (read-sequence payload in))
        (error 'brisk-error :message "the server closed the connection inside a frame"))
      (values (code-char (aref header 0)) (read-u32 header 1) payload))))

(defun start-server ()
  "Runs `brisk daemon start' ($BRISK_COMMAND, else brisk on PATH); true when it says a server runs."
  (let ((brisk (or (sb-posix:getenv "BRISK_COMMAND") "brisk")))
    (handler-case
        (zerop (sb-ext:process-exit-code
                (sb-ext:run-program brisk '("daemon" "start") :search t :input nil :output nil :error nil)))
      (error () nil))))

(defun open-socket (path &optional (seconds 0))
  "A socket connected to PATH, trying again every 50 ms for SECONDS; else NIL and the last error."
  (let ((until (+ (get-internal-real-time) (* seconds internal-time-units-per-second))))
    (loop
      (let ((socket (make-instance 'sb-bsd-sockets:local-socket :type :stream)))
        (handler-case (progn (sb-bsd-sockets:socket-connect socket path)
                             (return socket))
          (error (e)
            (sb-bsd-sockets:socket-close socket)
            (when (>= (get-internal-real-time) until)
              (return (values nil e)))
            (sleep 0.05)))))))

(defun connect (&optional (path nil path-given))
  "Connects to the brisk server at PATH and checks its hello; returns a client. Without PATH,
the default socket, and when no server listens there, starts the user's brisk server as the
brisk command does (docs/DAEMON.md; unless *START-SERVER* is NIL) and connects once more (for
up to 10 s while its sockets come up)."
  (let* ((path (or path (default-socket-path)))
         (socket (multiple-value-bind (socket e) (open-socket path)
                   (or socket
                       (and (not path-given) *start-server* (start-server) (open-socket path 10))
                       (error 'brisk-error :message (format nil "cannot connect to brisk serve at ~a: ~a" path e))))))
    (let ((client (%make-client :socket socket
                                :stream (sb-bsd-sockets:socket-make-stream
                                         socket :input t :output t :element-type '(unsigned-byte 8)
                                         :buffering :full))))
      (multiple-value-bind (type id payload) (read-frame client)
        (declare (ignore id))
        (let ((text (sb-ext:octets-to-string payload :external-format :utf-8)))
          (cond ((char= type #\E)
                 (disconnect client)
                 (error 'brisk-error :message (format nil "the server refused the connection: ~a" text)))
                ((not (and (char= type #\H) (eql 0 (search "brisk-serve 1" text))))
                 (disconnect client)
                 (error 'brisk-error :message (format nil "not a brisk serve protocol 1 hello: ~a" text))))))
      client)))

(defun disconnect (&optional (client *client*))
  "Closes CLIENT's connection; the server kills whatever it still runs."
  (when client
    (ignore-errors (sb-bsd-sockets:socket-close (client-socket client)))
    (when (eq client *client*) (setf *client* nil)))
  nil)

(defun ensure-client (client)
  (or client *client* (setf *client* (connect))))

(defun next-id (client)
  (setf (client-next-id client) (1+ (mod (client-next-id client) #xFFFFFFFE))))

(defun no-nul-p (x)
  (not (find (if (stringp x) #\Nul 0) x)))

(defun printed-without-nul-p (x)
  (no-nul-p (princ-to-string x)))

(deftype word ()
  "A command text or argv word as the protocol carries it: a string or octets without NUL."
  '(and (or string (vector (unsigned-byte 8))) (satisfies no-nul-p)))

(defun environment-name-p (name)
  (and (plusp (length name))
       (not (digit-char-p (char name 0)))
       (every (lambda (c) (or (char= c #\_) (and (char< c (code-char 128)) (alphanumericp c)))) name)))

(defparameter *shell-owned-variables*
  '("PWD" "OLDPWD" "SHLVL" "_" "UID" "EUID" "PPID" "SHELLOPTS" "RANDOM" "SRANDOM" "LINENO" "SECONDS"
    "EPOCHSECONDS" "EPOCHREALTIME" "HISTCMD" "GROUPS" "FUNCNAME" "DIRSTACK" "IFS" "OPTIND" "OPTARG"
    "HOSTNAME" "HOSTTYPE" "MACHTYPE" "OSTYPE")
  "Variables the server's shell sets itself (or refuses to take): never sent.")

(defun current-environment ()
  "This process's environment as an alist for RUN's :ENV: what a child it started would see,
less the names a shell sets itself (PWD, SHLVL, BASH*...) and names no shell can export."
  (loop for entry in (sb-ext:posix-environ)
        for eq = (position #\= entry)
        for name = (and eq (subseq entry 0 eq))
        when (and name (environment-name-p name)
                  (not (member name *shell-owned-variables* :test #'string=))
                  (not (eql 0 (search "BASH" name)))
                  (not (eql 0 (search "__brisk_" name))))
          collect (cons name (subseq entry (1+ eq)))))

(defun field (tag value out)
  (let ((v (octets value)))
    (vector-push-extend (char-code tag) out)
    (loop for shift from 24 downto 0 by 8 do (vector-push-extend (ldb (byte 8 shift) (length v)) out))
    (loop for b across v do (vector-push-extend b out))))

(defun await (client id on-output)
  "Reads frames until ID's final frame; returns its type and payload."
  (loop
    (multiple-value-bind (type fid payload) (read-frame client)
      (cond ((and (char= type #\E) (= fid 0))
             (disconnect client)
             (error 'brisk-error :message (format nil "the server ended the connection: ~a"
                                                  (sb-ext:octets-to-string payload :external-format :utf-8))))
            ((/= fid id))                ; a late frame of a cancelled request
            ((member type '(#\o #\e)) (funcall on-output type payload))
            ((char= type #\E)
             (error 'brisk-error :message (sb-ext:octets-to-string payload :external-format :utf-8)))
            ((member type '(#\x #\K)) (return (values type payload)))))))

(defun collect (chunks)
  (let ((all (make-array (reduce #'+ chunks :key #'length) :element-type '(unsigned-byte 8)))
        (at 0))
    (dolist (c (reverse chunks) all)
      (replace all c :start1 at)
      (incf at (length c)))))

(defun run (command &key timeout input directory env session max-output (external-format :utf-8) client)
  "Runs COMMAND (a string of shell text, or a list of argv words) on the brisk server.
Returns four values: stdout, exit code, stderr, timed-out-p. Output is decoded with
EXTERNAL-FORMAT (:utf-8 by default), or returned as octet vectors with :octets.
TIMEOUT is in seconds (the command's process group is killed after it); INPUT is a string or
octets for stdin (none: end of file at once); DIRECTORY an absolute path; ENV an alist of
(name . value); SESSION a session from OPEN-SESSION. Signals BRISK-ERROR when the server
refuses or aborts the request. Bad arguments (a NUL in COMMAND, a negative TIMEOUT) signal
TYPE-ERROR before anything is sent."
  (if (listp command)
      (progn (assert command (command) "an argv list needs a program")
             (dolist (w command) (check-type w word)))
      (check-type command word))
  (check-type timeout (or null (real 0)))
  (check-type max-output (or null (integer 0)))
  (loop for (k . v) in env
        do (check-type k (and string (satisfies environment-name-p)))
           (check-type v (satisfies printed-without-nul-p)))
  (let* ((client (ensure-client client))
         (req (make-array 64 :element-type '(unsigned-byte 8) :adjustable t :fill-pointer 0))
         (in (and input (octets input)))
         (streamed (and in (> (length in) (floor +max-payload+ 2))))
         (out '()) (err '()))
    (if (listp command)
        (dolist (w command) (field #\a w req))
        (field #\c command req))
    (when directory (field #\d (namestring directory) req))
    (loop for (k . v) in env do (field #\e (format nil "~a=~a" k v) req))
    (when in (if streamed (field #\s "" req) (field #\i in req)))
    (when timeout (field #\t (princ-to-string (max 1 (round (* timeout 1000)))) req))
    (when max-output (field #\m (princ-to-string max-output) req))
    (when session (field #\S (princ-to-string session) req))
    (sb-thread:with-recursive-lock ((client-lock client))
      (let ((id (next-id client)))
        (write-frame client #\R id (coerce req '(simple-array (unsigned-byte 8) (*))))
        (when streamed
          (loop for start from 0 below (length in) by +max-payload+
                do (write-frame client #\I id (subseq in start (min (length in) (+ start +max-payload+)))))
          (write-frame client #\I id (make-array 0 :element-type '(unsigned-byte 8))))
        (multiple-value-bind (type payload)
            (handler-bind ((sb-sys:interactive-interrupt
                             (lambda (c) (declare (ignore c))
                               (ignore-errors (write-frame client #\C id #()))
                               (disconnect client))))
              (await client id (lambda (type chunk) (if (char= type #\o) (push chunk out) (push chunk err)))))
          (declare (ignore type))
          (let* ((code (let ((u (read-u32 payload 0))) (if (>= u #x80000000) (- u #x100000000) u)))
                 (flags (aref payload 5))
                 (o (collect out)) (e (collect err)))
            (flet ((decode (v) (if (eq external-format :octets) v
                                   (sb-ext:octets-to-string v :external-format external-format))))
              (values (decode o) code (decode e) (logtest flags 1)))))))))

(defun open-session (&key client)
  "Opens a session (a shell of its own: cd and variables persist); returns its id for :SESSION."
  (let ((client (ensure-client client)))
    (sb-thread:with-recursive-lock ((client-lock client))
      (let ((id (next-id client)))
        (write-frame client #\O id #())
        (await client id (lambda (type chunk) (declare (ignore type chunk))))
        id))))

(defun close-session (session &key client)
  "Closes SESSION's shell on the server."
  (let ((client (ensure-client client)))
    (sb-thread:with-recursive-lock ((client-lock client))
      (write-frame client #\X session #())
      (await client session (lambda (type chunk) (declare (ignore type chunk))))
      nil)))

(defmacro with-session ((var &key client) &body body)
  "Runs BODY with VAR bound to a new session id, closing the session afterwards."
  (let ((c (gensym)))
    `(let* ((,c ,client) (,var (open-session :client ,c)))
       (unwind-protect (progn ,@body)
         (ignore-errors (close-session ,var :client ,c))))))
