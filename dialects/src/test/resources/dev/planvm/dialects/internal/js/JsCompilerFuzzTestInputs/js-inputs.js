// dialect-options: inputs=user
// Names the run provides may be read; an unknown name is an error.
return orders({user: user, account: account});
