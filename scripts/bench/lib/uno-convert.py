"""A converter kept running, as unoserver runs one: a LibreOffice started once with --accept,
driven over UNO (Debian's python3-uno). Reads lines `<input> <output.pdf>` on stdin, converts
each with the running LibreOffice, and prints one line per file: `ok <ms>` or `error <message>`.
Macros are never run and links never updated (the load's own arguments), as the service's
profile asks. Run with Debian's /usr/bin/python3 (the one python3-uno installs into).

    /usr/bin/python3 uno-convert.py <pipe name>
"""
import sys
import time

import uno
from com.sun.star.beans import PropertyValue


def props(**values):
    out = []
    for name, value in values.items():
        p = PropertyValue()
        p.Name = name
        p.Value = value
        out.append(p)
    return tuple(out)


def connect(pipe, deadline):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext(
        "com.sun.star.bridge.UnoUrlResolver", local
    )
    while True:
        try:
            return resolver.resolve(
                "uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe
            )
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def main():
    ctx = connect(sys.argv[1], time.monotonic() + 300)
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    print("ready", flush=True)
    for line in sys.stdin:
        source, target = line.rstrip("\n").split(" ", 1)
        started = time.monotonic()
        try:
            doc = desktop.loadComponentFromURL(
                uno.systemPathToFileUrl(source),
                "_blank",
                0,
                # MacroExecutionMode 0: never; UpdateDocMode 0: no link updates.
                props(Hidden=True, ReadOnly=True, MacroExecutionMode=0, UpdateDocMode=0),
            )
            try:
                doc.storeToURL(
                    uno.systemPathToFileUrl(target), props(FilterName="writer_pdf_Export")
                )
            finally:
                doc.close(True)
            print("ok %.1f" % ((time.monotonic() - started) * 1000), flush=True)
        except Exception as err:  # one file's failure is reported, the next one is tried
            print("error %s" % str(err).replace("\n", " "), flush=True)


main()
