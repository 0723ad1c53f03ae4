"""The federation's people as a service, with no HTTP in it: accounts and guests
(:mod:`~fido.accounts.signup`), sessions, the roles of organisers and the federation,
the requests to be a ranking player (:mod:`~fido.accounts.claims`) and notifications.

Its refusals are :class:`fido.errors.Refused`, with a code: the server answers them
over HTTP, the command line prints them, the pages show them.
"""
